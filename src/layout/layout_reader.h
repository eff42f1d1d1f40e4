// Reads what is on a disk into a DiskLayout: the partition table written on
// it (libblkid), the kernel's partitions (sysfs), and for each partition, or
// for the whole disk when there is no table, the stack inside it: md member
// -> LVM physical volume -> filesystem, each at its absolute disk offset.
//
// Only reads. Content that cannot be followed (a filesystem on a striped
// array whose first chunk is on another member, LVM metadata that does not
// parse, an md array built on a logical volume: layers come in that order
// only) becomes a note on the stack, never an exception.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

struct LayoutSource {
  int fd = -1;                 // the whole disk (or a disk image), open for reading
  std::string path;            // for messages and node names
  bool regular_file = false;   // a disk image: audited as the loop device it would be (audit.h)
  uint64_t size_bytes = 0;
  uint32_t logical_block = 512;
  std::string disk_name;       // "loop0": kernel partitions are read for it; "" for images
  std::string sysfs_root = "/sys";
};

DiskLayout read_disk_layout(const LayoutSource& source);

// The stack found at [offset, offset + size) of the source: what a partition
// (or the whole disk) contains. Exposed for targets that are one partition
// whose disk cannot be opened.
LayoutStack read_stack(const LayoutSource& source, uint64_t offset, uint64_t size);

}  // namespace ssdprobe
