// Opens what the audit reads for a target: its whole disk (a partition's
// parent, so the table and its neighbours are seen), or the image file
// itself, read as the loop device `losetup FILE` makes of it (512 B
// logical blocks; layout/audit.h). Read-only, buffered (the audit reads a few KiB at scattered
// places; O_DIRECT would add nothing but alignment rules).
#pragma once

#include <string>

#include "core/unique_fd.h"
#include "device/target.h"
#include "layout/layout_reader.h"

namespace ssdprobe {

struct OpenedLayoutSource {
  UniqueFd fd;
  LayoutSource source;   // source.fd borrows fd
};

// Throws Error(target) for simulated drives (nothing on them) and
// Error(permission | target) when the disk cannot be opened.
OpenedLayoutSource open_layout_source(const Target& target, const std::string& sysfs_root = "/sys");

}  // namespace ssdprobe
