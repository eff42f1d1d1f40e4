// Reads a file's extents with the FS_IOC_FIEMAP ioctl (file order, data
// synced first so delayed allocations are placed). Read-only: the ioctl
// maps, it never moves anything. Judged in layout/file_extents.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layout/file_extents.h"

namespace ssdprobe {

struct FiemapResult {
  std::vector<FileExtent> extents;
  bool cut = false;  // more than kMaxFileExtents: the rest are not read
};

// Enough for any file a layout question is about; a file in more pieces
// than this is fragmented past any alignment question.
constexpr size_t kMaxFileExtents = 1'000'000;

// `fd` open on a regular file; `name` (printable) for errors. Throws
// Error(unsupported) when the filesystem has no FIEMAP (tmpfs, some FUSE),
// os_error otherwise.
FiemapResult read_fiemap(int fd, const std::string& name);

}  // namespace ssdprobe
