// Storage stacked where holders/ does not show it. Device-mapper, md and
// bcache register as holders of what they sit on; loop devices do not: a
// loop over a disk (`losetup -o 128M /dev/sdb`, the usual way to reach a
// partition the kernel has not parsed) or over a file writes there unseen.
// These readers let the write path see them: a loop over the target makes
// it in use, and a journal directory on anything built on the target is
// refused.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ssdprobe {

struct AttachedLoop {
  std::string name;          // "loop3"
  std::string backing_path;  // as sysfs names it: the path when attached (it may name nothing now)
  bool backing_found = false;  // the backing below is known (the kernel said, or the path resolved)
  bool backing_is_block = false;
  dev_t backing_rdev = 0;    // block backing: the device
  dev_t backing_dev = 0;     // the backing's filesystem and inode (for a block device, its node's)
  ino_t backing_ino = 0;
  uint64_t offset = 0;       // where the loop starts in its backing
  uint64_t size = 0;         // bytes the loop shows
};

// Every attached loop device under `sysfs_root`/block. On the real /sys the
// backing is read from each loop device (LOOP_GET_STATUS64), so a deleted or
// renamed backing file is still known by device and inode; under a fake
// tree (tests) from the path sysfs names.
std::vector<AttachedLoop> attached_loops(const std::string& sysfs_root = "/sys");

// The block devices a filesystem on block device `dev` ultimately lives on,
// `dev` included: through partitions (their disk), holders' slaves (dm, md)
// and loop devices (their backing device, or the device holding their
// backing file), to a depth of 16. Files backing loops are returned too, as
// {dev, ino} pairs in `backing_files`.
struct StorageChain {
  std::vector<dev_t> devices;
  std::vector<std::pair<dev_t, ino_t>> backing_files;
};
StorageChain storage_beneath(dev_t dev, const std::string& sysfs_root = "/sys");

// The /dev node of block device `dev` as the kernel names it (uevent
// DEVNAME), "" when unknown. The caller checks st_rdev of what it opens.
std::string block_device_node(dev_t dev, const std::string& sysfs_root = "/sys");

}  // namespace ssdprobe
