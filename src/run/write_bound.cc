#include "run/write_bound.h"

#include <fmt/format.h>

#include "run/parallelism_section.h"

namespace ssdprobe {

WriteBound write_bound(const Region& window, bool restored, uint64_t cache_bytes) {
  return {cache_bytes, kWriteGridByteCap, 2 * window.length, kWriteParallelismByteCap, restored ? window.length : 0};
}

std::string WriteBound::breakdown() const {
  std::string text;
  if (slc_cache > 0) text = fmt::format("SLC cache probe and the write grid inside the cache <= {} (the window rewritten), ", format_size(slc_cache));
  text += fmt::format("write grid <= {}, erase stream <= {} (two passes over the window), write "
                                 "parallelism <= {}", format_size(write_grid), format_size(erase_stream),
                                 format_size(write_parallelism));
  if (restore > 0) text += fmt::format(", restore {}", format_size(restore));
  return text;
}

}  // namespace ssdprobe
