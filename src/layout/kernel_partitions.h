// The partitions the kernel has made for a disk, read from sysfs: what IO
// to /dev/DISKn really addresses, whatever the table on the disk says (the
// kernel may not have re-read a changed table, may have no parser for it,
// or got its partitions from `addpart`).
#pragma once

#include <string>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

// The partitions the kernel has for disk `disk_name` ("loop0", "nvme0n1"):
// each /sys/block/DISK/*/ directory with a `partition` file, with its start
// and size (sysfs counts 512-byte sectors whatever the logical block),
// alignment_offset (unset when missing), partition number (the `partition`
// file) and name (the directory's name, "nvme0n1p2"); sorted by number.
// A directory whose number, start or size is missing, not a number or too
// large for a byte count is left out. Empty when there are none, when the
// disk is unknown, or when `disk_name` is not a plain name. `sysfs_root` is
// "/sys" in production.
std::vector<KernelPartition> read_kernel_partitions(const std::string& disk_name,
                                                    const std::string& sysfs_root = "/sys");

}  // namespace ssdprobe
