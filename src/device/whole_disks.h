// The whole disks of this machine, for `ssdprobe audit --all-disks` (the
// daily audit the systemd timer runs): every block device the kernel lists
// that sits on hardware and holds data.
#pragma once

#include <string>
#include <vector>

namespace ssdprobe {

// "/dev/NAME" for each entry of `sysfs_root`/block that has a `device` link
// (hardware: NVMe namespaces, SCSI/SATA/USB/SAS disks, SD cards, virtio
// disks; not loop, ram, zram, md or device-mapper devices, which are layers
// on disks the audit already sees), a size above 0 and is neither hidden (an
// NVMe multipath path) nor an optical drive (sr*). Sorted by name.
std::vector<std::string> whole_disks(const std::string& sysfs_root = "/sys");

}  // namespace ssdprobe
