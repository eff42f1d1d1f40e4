#include "run/in_cache_grid_phase.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "core/units.h"
#include "report/enum_names.h"
#include "run/run_context.h"
#include "run/write_phases.h"

namespace ssdprobe {
namespace {

// The native write grid's plan, cut to sizes up to twice the native unit
// when one was found: an SLC cache programs each page by itself, so its unit
// is no larger than the native one (a TLC one-shot program writes three
// pages at once), and a smaller grid fits the little a cache gives back.
GridPlan in_cache_plan(const RunContext& run) {
  GridPlan plan = write_grid_plan(run);
  const auto& native = run.doc.write_unit;
  if (native.state != UnitState::found || !native.bytes) return plan;
  const uint64_t largest = 2 * *native.bytes;
  std::erase_if(plan.sizes, [&](uint64_t size) { return size > largest && size != plan.sizes.front(); });
  std::erase_if(plan.candidates, [&](uint64_t unit) { return unit > *native.bytes; });
  return plan;
}

// What a grid on `plan` writes before its answer can be confirmed: the
// warm-up, a first round of 3 samples per cell and a second of twice that
// (run_grid_probe's defaults).
uint64_t bytes_to_confirm(const GridPlan& plan) {
  const uint64_t one_per_cell = std::accumulate(plan.sizes.begin(), plan.sizes.end(), uint64_t{0}) * plan.offsets.size();
  const uint64_t cells = plan.sizes.size() * plan.offsets.size();
  const uint64_t warm_up = GridProbeOptions{}.warmup_ios * (one_per_cell / std::max<uint64_t>(cells, 1));
  return warm_up + 9 * one_per_cell;
}

// Found only when a second round confirmed it: a grid the byte cap or the
// budget stopped after one round has a leading unit, not an answer.
DetectedUnit in_cache_unit(const GridProbeResult& grid, std::string device_state) {
  const UnitVerdict& v = grid.verdict;
  DetectedUnit unit{v.bytes, v.state, v.confidence, v.evidence, v.levels, std::move(device_state),
                    v.searched_up_to_bytes, v.fit_dispersion, {}, "slc_cache",
                    best_candidate(v), best_candidate_support(v), {}};
  if (grid.stop_reason == GridStopReason::settled || unit.state != UnitState::found) return unit;
  unit.state = UnitState::undetermined;
  unit.evidence = fmt::format("not confirmed: the grid stopped ({}) after {} round(s), before a second round agreed; "
                              "it leaned to {}: {}", stop_reason_name(grid.stop_reason), grid.rounds,
                              format_size(unit.bytes.value_or(0)), unit.evidence);
  unit.best_candidate_bytes = unit.bytes;
  unit.best_candidate_support = unit.confidence;
  unit.bytes.reset();
  unit.confidence = 0.0;
  return unit;
}

}  // namespace

InCacheByteCap in_cache_byte_cap(const ResultDocument& doc, uint64_t cache_bytes) {
  if (!doc.slc_cache_detail || !doc.slc_cache_detail->recovery) return {};
  const CacheRecovery& recovery = *doc.slc_cache_detail->recovery;
  const uint64_t half_back = recovery.bytes.value_or(recovery.at_least_bytes.value_or(0)) / 2;
  // The probe's cap: --cache-bytes, or less on a small drive (run/write_bound.h).
  const uint64_t cap = std::min(cache_bytes, doc.slc_cache_detail->cap_bytes);
  const uint64_t cap_left = cap - std::min(cap, doc.slc_cache_detail->written_bytes);
  if (half_back == 0 || cap_left == 0) return {};
  if (half_back <= cap_left) return {half_back, "half of what the SLC cache took again after as long an idle"};
  const std::string whose = cap < cache_bytes ? "the SLC cache probe's cap for this drive" : "--cache-bytes";
  return {cap_left, fmt::format("what {} {} left after the cache probe", whose, format_size(cap))};
}

std::optional<std::string> skip_in_cache_grid_unless_cache_refills(const RunContext& run) {
  if (run.doc.slc_cache.state != UnitState::found) return std::string("no SLC cache was found");
  if (in_cache_byte_cap(run.doc, run.options.cache_bytes).bytes == 0) {
    return std::string("the SLC cache was not measured coming back after idling");
  }
  if (run.write.in_cache_grid_s <= 0.0) {
    return std::string("--budget left no time for a write grid inside the SLC cache");
  }
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
  const InCacheByteCap cap = in_cache_byte_cap(run.doc, run.options.cache_bytes);
  const auto max_bytes = static_cast<uint64_t>(static_cast<double>(cap.bytes) * idle_fraction);
  const GridPlan plan = in_cache_plan(run);
  const uint64_t needed = bytes_to_confirm(plan);
  if (max_bytes < needed) {
    return PhaseOutcome::skipped(fmt::format("a write grid inside the SLC cache needs about {} to confirm a unit; "
                                             "{} fits ({})", format_size(needed), format_size(max_bytes),
                                             cap.limit));
  }
  run.observer.message(fmt::format("idling {:.3g} s for the SLC cache to empty, then the write grid inside it", idle_s));
  run.target.device->idle(static_cast<uint64_t>(idle_s * 1e9));
  GridProbeResult grid = run_write_grid_probe(run, plan, "write-in-cache", w.in_cache_grid_s - idle_s, max_bytes);
  const std::string scaled =
      idle_fraction < 1.0 ? fmt::format(", scaled to an idle {:.0f} % as long", 100.0 * idle_fraction) : "";
  DetectedUnit unit = in_cache_unit(grid, fmt::format("random writes inside the write window, after {:.3g} s idle, "
                                                      "at most {} ({}{})", idle_s, format_size(max_bytes),
                                                      cap.limit, scaled));
  mark_regime_shift(run.doc, unit, grid, "write grid inside the SLC cache");
  cache.write_unit = std::move(unit);
  cache.write_unit_written_bytes = grid.bytes_issued;
  run.doc.write_probe->bytes_written += grid.bytes_issued;
  run.tally.ios += grid.ios;
  run.tally.device_time_s += idle_s + grid.elapsed_s;
  PhaseOutcome outcome = PhaseOutcome::of_grid(grid);
  outcome.device_time_s += idle_s;
  run.doc.grids.push_back(
      GridReport{"write-in-cache", "write", 1, std::move(grid.grid), std::move(grid.round_shifts_us),
                 std::move(grid.corrected), {}});
  return outcome;
}

}  // namespace ssdprobe
