// The `slc_cache` phase of a --write run (probes/slc_cache_probe.h): before
// the write grid, so the grid and the erase stream measure the drive in the
// state data ends up in (native) whenever the cache runs out within
// --cache-bytes. Fills detected.slc_cache and slc_cache_detail.
#pragma once

#include <optional>
#include <string>

#include "run/phase.h"

namespace ssdprobe {

PhaseOutcome run_slc_cache_phase(RunContext& run);
// --cache-bytes 0.
std::optional<std::string> skip_cache_if_disabled(const RunContext& run);
// What the write grid's writes met: "native" after a cache drop, else "unknown".
std::string write_regime(const ResultDocument& doc);

}  // namespace ssdprobe
