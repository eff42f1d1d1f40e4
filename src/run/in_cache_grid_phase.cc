#include "run/in_cache_grid_phase.h"

#include <fmt/format.h>

#include "core/units.h"
#include "run/run_context.h"
#include "run/write_phases.h"

namespace ssdprobe {

std::optional<std::string> skip_in_cache_grid_unless_cache_refills(const RunContext& run) {
  const WriteState& w = run.write;
  if (run.doc.slc_cache.state != UnitState::found) return std::string("no SLC cache was found");
  if (w.in_cache_grid_bytes == 0) return std::string("the SLC cache was not measured coming back after idling");
  if (w.in_cache_grid_s <= 0.0) return std::string("--budget left no time for a write grid inside the SLC cache");
  return std::nullopt;
}

PhaseOutcome run_in_cache_grid_phase(RunContext& run) {
  const WriteState& w = run.write;
  SlcCacheDetail& cache = *run.doc.slc_cache_detail;
  // An idle shorter than the recovery fill's (a short --budget) gives back
  // less: the byte cap shrinks with it, as if the drive emptied its cache at
  // a steady rate.
  const double idle_s = std::min(cache.recovery->idle_s, w.in_cache_grid_s / 2.0);
  const double idle_fraction = cache.recovery->idle_s > 0.0 ? idle_s / cache.recovery->idle_s : 1.0;
  const auto max_bytes = static_cast<uint64_t>(static_cast<double>(w.in_cache_grid_bytes) * idle_fraction);
  run.observer.message(fmt::format("idling {:.3g} s for the SLC cache to empty, then the write grid inside it", idle_s));
  run.target.device->idle(static_cast<uint64_t>(idle_s * 1e9));
  GridProbeResult grid = run_write_grid_probe(run, w.in_cache_grid_s - idle_s, max_bytes);
  const UnitVerdict& v = grid.verdict;
  DetectedUnit unit{v.bytes, v.state, v.confidence, v.evidence, v.levels,
                    fmt::format("random writes inside the write window, after {:.3g} s idle, at most {} (half of "
                                "what the SLC cache took again after as long an idle)", idle_s, format_size(max_bytes)),
                    v.searched_up_to_bytes, v.fit_dispersion, {}, "slc_cache"};
  if (const auto shift = regime_shift(grid)) {
    run.doc.notes.push_back(regime_shift_note("write grid inside the SLC cache", *shift));
    unit.regime = "mixed";
  }
  cache.write_unit = std::move(unit);
  run.doc.write_probe->bytes_written += grid.bytes_issued;
  run.tally.ios += grid.ios;
  run.tally.device_time_s += idle_s + grid.elapsed_s;
  run.doc.grids.push_back(
      GridReport{"write-in-cache", "write", 1, std::move(grid.grid), std::move(grid.round_shifts_us)});
  PhaseOutcome outcome = PhaseOutcome::of_grid(grid);
  outcome.device_time_s += idle_s;
  return outcome;
}

}  // namespace ssdprobe
