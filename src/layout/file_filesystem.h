// The filesystem a file lives on, as far as placing its extents goes: its
// type and block (statfs), the block device under it and where that device
// starts on its disk (st_dev -> /sys/dev/block/MAJ:MIN: a partition's
// `start`; 0 for a whole disk or a loop device without partitions), an ext4
// bigalloc cluster or xfs stripe unit (the superblock, read from that device) and a file's xfs
// extent size hint (FS_IOC_FSGETXATTR). Reads only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

struct FileFilesystem {
  std::string type;                       // "ext4", "xfs", "f2fs", "btrfs", "tmpfs", or "0xMAGIC"
  uint64_t block_bytes = 0;               // statfs f_bsize
  std::optional<uint64_t> cluster_bytes;  // ext4 bigalloc
  std::optional<uint64_t> stripe_unit_bytes;  // xfs sunit: where its allocator puts a new extent's start
  std::optional<uint64_t> allocation_group_bytes;  // xfs: a stripe unit set by a mount must divide it
  std::string device;                     // "/dev/loop3p1"; "" when no block device is under it
  std::string disk;                       // its whole disk: "/dev/loop3"
  uint64_t disk_start = 0;                // the device's first byte on that disk
  // Empty when FIEMAP's fe_physical is an offset on `device`; else why not
  // (btrfs maps its own address space; no block device at all).
  std::string offsets_unknown;
  std::vector<std::string> notes;         // what could not be read, and why
};

// The filesystem holding the open file `fd`; `name` (printable) for notes.
FileFilesystem file_filesystem(int fd, const std::string& name, const std::string& sysfs_root = "/sys");

// The xfs extent size hint of `fd` (0: none); nullopt where the filesystem
// has no such attribute.
std::optional<uint64_t> extent_size_hint(int fd);

}  // namespace ssdprobe
