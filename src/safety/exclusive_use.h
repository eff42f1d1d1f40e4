// Is anyone else using this block device? Before ssdprobe writes a byte it
// refuses when a whole-disk target or any partition of it, or a partition
// target itself or its parent disk as a whole, is mounted, used as swap, or
// held by another block device
// (device-mapper, md, bcache: sysfs holders/), or backs a loop device, or
// shares its backing file with a loop device that is in use
// (stacked_storage.h). The final word is the kernel's
// O_EXCL open (WriteSession takes it), which also catches users this scan
// cannot see.
#pragma once

#include <string>
#include <vector>

#include "device/topology.h"

namespace ssdprobe {

struct DeviceUser {
  std::string device;   // "sda1"
  std::string how;      // "mounted at /srv", "swap", "held by dm-0"
};

// Users of the disk `disk_name` (e.g. "sda") or of any of its partitions.
// Roots are parameters so tests can use fake /proc and /sys trees.
std::vector<DeviceUser> find_device_users(const std::string& disk_name, const std::string& sysfs_root = "/sys",
                                          const std::string& mountinfo = "/proc/self/mountinfo",
                                          const std::string& swaps = "/proc/swaps");

// Throws Error(refused) naming every user, or returns quietly.
void refuse_if_in_use(const Topology& target, const std::string& sysfs_root = "/sys",
                      const std::string& mountinfo = "/proc/self/mountinfo",
                      const std::string& swaps = "/proc/swaps");

// A regular file target open at `fd` is in use when it backs a loop device
// (the kernel holds it, and writes through the loop device would race ours)
// or another process has it open (a write lease cannot be taken while any
// other descriptor on the file exists). Throws Error(refused) naming which.
void refuse_file_in_use(const std::string& path, int fd, const std::string& sysfs_root = "/sys");

// Opens `path` read-write with O_DIRECT, and O_EXCL when `exclusive` (a
// block device: the kernel's own in-use check), for the probe's writes and
// for a restore. A claim the kernel is still letting go of is waited for,
// briefly: a process that ends with an io_uring ring still holding the
// device (a run killed with SIGKILL, or any program that closes its ring
// without unregistering its files) releases it only when a kernel worker
// tears the ring down, a moment after the process is gone, and a restore
// right after such a run is the usual case. A device that is really in use
// stays busy through the wait (2 s) and the EBUSY is returned as before.
// Returns the descriptor, or -1 with errno set.
int open_device_for_writing(const std::string& path, bool exclusive);

}  // namespace ssdprobe
