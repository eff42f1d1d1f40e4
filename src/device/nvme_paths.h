// Recognises NVMe targets whatever path the user gives and names every
// device node that reaches the same namespace:
//   /dev/nvme0n1, /dev/nvme0n1p2  namespace block device (and a partition)
//   /dev/ng0n1                    generic char device (passthrough IO)
//   /dev/nvme0                    controller char device (admin commands)
// Symlinks (/dev/disk/by-id/...) are followed first. The mapping uses sysfs:
// /sys/block/<disk>/device and /sys/class/nvme-generic/<ng>/device lead to
// the controller (or, with native multipath, to an nvme-subsystem whose
// first live controller is taken), /sys/class/nvme/<ctrl>/ lists the
// controller's namespaces, and /sys/block/<disk>/nsid gives the namespace ID.
// Names follow the kernel's scheme (nvme<X>n<Y> and ng<X>n<Y> share X and Y);
// a name sysfs does not know is left empty rather than guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ssdprobe {

struct NvmeTarget {
  std::string controller;      // "nvme0": /dev/nvme0 takes admin commands
  std::string namespace_disk;  // "nvme0n1"; empty for a controller without namespaces
  std::string partition;       // "nvme0n1p2" when the path named a partition
  std::string generic;         // "ng0n1"; empty when the kernel has no generic device for it
  std::optional<uint32_t> nsid;  // from sysfs; nullopt: ask the device (NVME_IOCTL_ID)

  std::string controller_path() const { return "/dev/" + controller; }
  std::string namespace_path() const { return namespace_disk.empty() ? "" : "/dev/" + namespace_disk; }
  std::string generic_path() const { return generic.empty() ? "" : "/dev/" + generic; }
};

// nullopt when the (resolved) name is not an NVMe device name. Never throws;
// missing sysfs entries only leave fields empty. `sysfs_root` is "/sys" in
// production; tests point it at a fake tree.
std::optional<NvmeTarget> resolve_nvme_target(const std::string& path, const std::string& sysfs_root = "/sys");

// The kernel name in `path` after following symlinks ("nvme0n1p2" for
// /dev/disk/by-id/nvme-X-part2); the last path component if it does not exist.
std::string device_name_of(const std::string& path);

}  // namespace ssdprobe
