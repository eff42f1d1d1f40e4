// The `write_grid_in_cache` phase of a --write run: the write grid again,
// this time inside the SLC cache, so the cache's own write unit is known
// beside the native one (an SLC cache often programs a smaller unit: a
// burst of small writes is cheap while it lasts, and that is worth saying).
//
// It runs after the native write phases, when the SLC cache probe found a
// cache and measured how much of it came back after an idle: it idles as
// long again (or half its budget, if less), then writes no more than half
// of what came back in that time (so the grid stays inside the cache) and no
// more than --cache-bytes left. The answer is slc_cache_detail.write_unit,
// with regime "slc_cache" (or "mixed" when the grid's rounds say the cache
// ran out during it after all).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "run/phase.h"

namespace ssdprobe {

// The most the grid inside the cache may write before scaling to its idle:
// half of what came back after the cache probe's idle (so it stays inside
// the cache) and no more than --cache-bytes left after the probe (the cap
// covers every write the cache costs). 0 when no recovery was measured.
struct InCacheByteCap {
  uint64_t bytes = 0;
  std::string limit;  // which of the two set it, in words
};
InCacheByteCap in_cache_byte_cap(const ResultDocument& doc, uint64_t cache_bytes);

PhaseOutcome run_in_cache_grid_phase(RunContext& run);
// No cache found, nothing measured coming back, or no budget reserved for it.
std::optional<std::string> skip_in_cache_grid_unless_cache_refills(const RunContext& run);

}  // namespace ssdprobe
