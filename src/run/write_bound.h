// The most a --write run can write to the target, from the same caps the
// write phases use: the question before the first write states it, and no
// run writes more. Each phase's share is an upper bound; --budget usually
// ends the phases well before their caps.
#pragma once

#include <cstdint>
#include <string>

#include "core/units.h"

namespace ssdprobe {

// At most this much is written by the write grid (the stream adds two passes
// over the window): enough for a verdict, little wear.
constexpr uint64_t kWriteGridByteCap = 1ull << 30;

struct WriteBound {
  uint64_t slc_cache = 0;          // --cache-bytes: both fills of the SLC cache probe
  uint64_t write_grid = 0;         // kWriteGridByteCap
  uint64_t erase_stream = 0;       // two sequential passes over the window
  uint64_t write_parallelism = 0;  // kWriteParallelismByteCap
  uint64_t restore = 0;            // the window written back (0: --no-preserve, or a sim)

  uint64_t total() const { return slc_cache + write_grid + erase_stream + write_parallelism + restore; }
  // "SLC cache probe <= 16 GiB, write grid <= 1 GiB, erase stream <= 512 MiB (two passes), ..."
  std::string breakdown() const;
};

WriteBound write_bound(const Region& window, bool restored, uint64_t cache_bytes);

}  // namespace ssdprobe
