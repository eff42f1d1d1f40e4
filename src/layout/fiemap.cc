#include "layout/fiemap.h"

#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <memory>

#include "core/error.h"

namespace ssdprobe {
namespace {

constexpr uint32_t kBatch = 512;  // extents per ioctl

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

}  // namespace

FiemapResult read_fiemap(int fd, const std::string& name) {
  const size_t bytes = sizeof(struct fiemap) + kBatch * sizeof(struct fiemap_extent);
  std::unique_ptr<struct fiemap, FreeDeleter> map(static_cast<struct fiemap*>(std::calloc(1, bytes)));
  if (!map) throw Error(ErrorCategory::internal, "out of memory for FIEMAP");
  FiemapResult result;
  uint64_t start = 0;
  for (;;) {
    std::memset(map.get(), 0, bytes);
    map->fm_start = start;
    map->fm_length = FIEMAP_MAX_OFFSET - start;
    map->fm_flags = FIEMAP_FLAG_SYNC;
    map->fm_extent_count = kBatch;
    if (::ioctl(fd, FS_IOC_FIEMAP, map.get()) != 0) {
      const int err = errno;
      if (err == EOPNOTSUPP || err == ENOTTY || err == EINVAL) {
        throw Error(ErrorCategory::unsupported, fmt::format("{}: the filesystem does not report where a file's "
                                                            "data lies (no FIEMAP: tmpfs, overlay or FUSE?)", name));
      }
      throw os_error(name + ": FIEMAP", err);
    }
    // Never more than the array holds, whatever the filesystem says.
    const uint32_t mapped = std::min(map->fm_mapped_extents, kBatch);
    if (mapped == 0) return result;
    for (uint32_t i = 0; i < mapped; ++i) {
      const struct fiemap_extent& e = map->fm_extents[i];
      result.extents.push_back({e.fe_logical, e.fe_physical, e.fe_length, e.fe_flags});
      if (e.fe_flags & FIEMAP_EXTENT_LAST) return result;
    }
    const FileExtent& last = result.extents.back();
    if (result.extents.size() >= kMaxFileExtents || last.logical + last.length <= start) {
      result.cut = result.extents.size() >= kMaxFileExtents;
      return result;
    }
    start = last.logical + last.length;
  }
}

}  // namespace ssdprobe
