#include "run/slc_cache_phase.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "analysis/stats.h"
#include "core/units.h"
#include "probes/slc_cache_probe.h"
#include "run/document.h"
#include "run/in_cache_grid_phase.h"
#include "run/run_budget.h"
#include "run/run_context.h"
#include "run/write_bound.h"

namespace ssdprobe {
namespace {

constexpr size_t kCurvePoints = 128;  // the document's curve: enough to draw, small to keep
constexpr double kLeastCacheProbeS = 0.05;  // below this share of --budget the probe does not run

double bytes_per_s(uint64_t io_bytes, double latency_us) { return static_cast<double>(io_bytes) * 1e6 / latency_us; }

std::string rate_text(double bytes_per_second) { return format_size(static_cast<uint64_t>(bytes_per_second)) + "/s"; }

// The first fill's speed in at most kCurvePoints stretches of equal writes.
std::vector<CacheCurvePoint> curve_of(const CacheFill& fill) {
  std::vector<CacheCurvePoint> curve;
  const size_t n = fill.latency_us.size();
  const size_t stretch = std::max<size_t>(1, (n + kCurvePoints - 1) / kCurvePoints);
  for (size_t first = 0; first < n; first += stretch) {
    const size_t count = std::min(stretch, n - first);
    const double us = std::accumulate(fill.latency_us.begin() + first, fill.latency_us.begin() + first + count, 0.0);
    curve.push_back({(first + count) * fill.io_bytes, bytes_per_s(count * fill.io_bytes, us)});
  }
  return curve;
}

// detected.slc_cache.ended_by (docs/result-json.md).
const char* fill_end_name(FillEnd end) {
  switch (end) {
    case FillEnd::cap: return "cap";
    case FillEnd::budget: return "budget";
    case FillEnd::drop: return "drop";
    case FillEnd::flat_speed: return "flat_speed";
  }
  return "cap";
}

DetectedUnit cache_found(const CacheFill& fill) {
  const ThroughputDrop& drop = *fill.drop;
  DetectedUnit unit;
  unit.state = UnitState::found;
  unit.bytes = fill.bytes_before_drop();
  unit.confidence = drop.separation;
  unit.evidence = fmt::format(
      "after {:.3g} s idle, sequential {} writes ran at {} for {}, then at {} ({:.1f}x slower) for the {} written "
      "after; {:.1f} % of (earlier, later) write pairs have the later one slower (the earlier side's slowest fifth "
      "left out: a busy host only ever delays writes)",
      fill.idle_s, format_size(fill.io_bytes), rate_text(bytes_per_s(fill.io_bytes, drop.before_median_us)),
      format_size(fill.bytes_before_drop()), rate_text(bytes_per_s(fill.io_bytes, drop.after_median_us)),
      drop.after_median_us / drop.before_median_us, format_size(fill.written_bytes() - fill.bytes_before_drop()),
      100.0 * drop.separation);
  return unit;
}

// The largest cache a fill of `writes` could have confirmed: a drop needs
// max(32, 20 % of the writes before it) slower writes after it
// (analysis/throughput_drop.h), so a cache nearer the end would not show.
uint64_t confirmable_bytes(const CacheFill& fill) {
  const DropRule rule;
  const double n = static_cast<double>(fill.latency_us.size());
  const double by_count = n - static_cast<double>(rule.min_after_samples);
  const double by_fraction = n / (1.0 + rule.min_after_fraction);
  const double writes = std::max(0.0, std::min(by_count, by_fraction));
  return static_cast<uint64_t>(writes) * fill.io_bytes;
}

// A slowdown the fill showed but could not confirm (the looser rule of
// analysis/throughput_drop.h): reason enough to claim no "none up to N".
std::optional<std::string> unconfirmed_step(const CacheFill& fill) {
  const auto step = find_sustained_drop(fill.latency_us, suggestive_drop_rule());
  if (!step) return std::nullopt;
  return fmt::format("the writes slowed {:.1f}x after {} but not clearly enough to call it the cache's end ({:.1f} % "
                     "of (earlier, later) write pairs have the later one slower, the earlier side's slowest fifth left "
                     "out; a busy host or drive can do that)",
                     step->after_median_us / step->before_median_us, format_size(step->index * fill.io_bytes),
                     100.0 * step->separation);
}

// What ended a fill that saw no drop: --budget, a flat speed past a share of
// the drive (run/write_bound.h: slc_flat_stop), --cache-bytes, or the
// drive's own size (slc_fill_cap), below --cache-bytes.
std::string fill_end_words(const CacheFill& fill, uint64_t cache_bytes) {
  if (fill.cut_by_budget()) return "--budget ended the fill";
  if (fill.end == FillEnd::flat_speed) {
    return fmt::format("it ended at a flat speed past 1/{} of the drive's capacity: a TLC drive with all its flash "
                       "in SLC mode holds about that much, a QLC drive a quarter",
                       kFlatStopCapacityDivisor);
  }
  if (fill.cap_bytes >= cache_bytes) return "the --cache-bytes cap ended it";
  return "it ended past what the drive could hold in an SLC cache: one bit in a cell that otherwise keeps two or "
         "more, over raw flash of at most twice the drive's capacity";
}

DetectedUnit cache_not_found(const CacheFill& fill, uint64_t cache_bytes) {
  DetectedUnit unit;
  if (fill.latency_us.empty()) {
    unit.state = UnitState::undetermined;
    unit.evidence = fill.cut_by_budget()
                        ? fmt::format("--budget left no time to write after the {:g} s idle", fill.idle_s)
                        : fmt::format("--cache-bytes {} is less than one {} write: nothing was written",
                                      format_size(fill.cap_bytes), format_size(fill.io_bytes));
    return unit;
  }
  const std::string fill_text =
      fmt::format("after {:.3g} s idle, {} of sequential {} writes at a median {}", fill.idle_s,
                  format_size(fill.written_bytes()), format_size(fill.io_bytes),
                  rate_text(bytes_per_s(fill.io_bytes, median(fill.latency_us))));
  const std::string ended_by = fill_end_words(fill, cache_bytes);
  if (const auto step = unconfirmed_step(fill)) {
    unit.state = UnitState::undetermined;
    unit.evidence = fmt::format("{}: {} ({})", fill_text, *step, ended_by);
    return unit;
  }
  unit.state = fill.cut_by_budget() ? UnitState::undetermined : UnitState::absent;
  unit.searched_up_to_bytes = confirmable_bytes(fill);
  unit.evidence = fmt::format(
      "{} showed no lasting drop in speed ({}; a cache of up to {} would have shown): the drive has no SLC cache, "
      "or one larger than that, or one already full when the run began",
      fill_text, ended_by, format_size(*unit.searched_up_to_bytes));
  return unit;
}

// How many of a fill's writes ran nearer (on a log scale) the native speed
// than the cache's.
size_t writes_at_native_speed(const CacheFill& fill, const ThroughputDrop& levels) {
  const double in_cache = std::log(levels.before_median_us), native = std::log(levels.after_median_us);
  return static_cast<size_t>(std::count_if(fill.latency_us.begin(), fill.latency_us.end(), [&](double us) {
    return std::abs(std::log(us) - native) < std::abs(std::log(us) - in_cache);
  }));
}

// How much of the cache the second fill found again after its idle.
CacheRecovery recovery_of(const CacheFill& second, const CacheFill& first) {
  CacheRecovery r;
  r.idle_s = second.idle_s;
  if (second.latency_us.empty()) {
    r.evidence = fmt::format("after {:.3g} s idle, no time was left to write", second.idle_s);
    return r;
  }
  if (second.drop) {
    r.state = UnitState::found;
    r.bytes = second.bytes_before_drop();
    r.evidence = fmt::format("after {:.3g} s idle, {} ran at the cache's speed again before the drop", second.idle_s,
                             format_size(*r.bytes));
    return r;
  }
  if (const auto step = unconfirmed_step(second)) {
    r.evidence = fmt::format("after {:.3g} s idle, {}", second.idle_s, *step);
    return r;
  }
  // No drop: all at the native speed (nothing came back) or all at the
  // cache's (more came back than the fill could write), or too mixed to say;
  // 80 % of the writes at one speed call the whole fill that speed.
  const size_t writes = second.latency_us.size(), native_writes = writes_at_native_speed(second, *first.drop);
  const double native_share = static_cast<double>(native_writes) / static_cast<double>(writes);
  if (5 * native_writes >= 4 * writes) {
    r.state = UnitState::absent;
    r.evidence = fmt::format("after {:.3g} s idle, {:.0f} % of the writes ran nearer the native speed than the "
                             "cache's, with no drop: nothing measurable came back", second.idle_s, 100.0 * native_share);
  } else if (5 * native_writes <= writes) {
    r.at_least_bytes = second.written_bytes();
    r.evidence = fmt::format("after {:.3g} s idle, the second fill's {} ran at the cache's speed ({:.0f} % of the "
                             "writes nearer it than the native speed, no drop; {} ended it): at least that much came "
                             "back", second.idle_s, format_size(second.written_bytes()), 100.0 * (1.0 - native_share),
                             second.cut_by_budget() ? "--budget" : "its share of --cache-bytes");
  } else {
    r.evidence = fmt::format("after {:.3g} s idle, {:.0f} % of the writes ran nearer the native speed and the rest "
                             "nearer the cache's, with no clear drop between: how much came back is not known",
                             second.idle_s, 100.0 * native_share);
  }
  return r;
}

SlcCacheDetail detail_of(const SlcCacheResult& result, const SlcCacheOptions& options) {
  SlcCacheDetail d;
  const CacheFill& first = result.first;
  if (first.drop) {
    d.in_cache_bytes_per_s = bytes_per_s(first.io_bytes, first.drop->before_median_us);
    d.native_bytes_per_s = bytes_per_s(first.io_bytes, first.drop->after_median_us);
  } else if (!first.latency_us.empty()) {
    d.in_cache_bytes_per_s = bytes_per_s(first.io_bytes, median(first.latency_us));
  }
  d.written_bytes = result.bytes_written;
  d.cap_bytes = options.cap_bytes;
  if (options.flat_stop_bytes > 0) d.flat_stop_bytes = options.flat_stop_bytes;
  d.ended_by = fill_end_name(first.end);
  d.io_bytes = first.io_bytes;
  d.idle_s = first.idle_s;
  d.curve = curve_of(first);
  if (result.recovery) d.recovery = recovery_of(*result.recovery, first);
  return d;
}

// The grid inside the cache (run/in_cache_grid_phase.h) gets its share set
// aside only when it has bytes to write.
void reserve_in_cache_grid(RunContext& run, double share_s) {
  if (in_cache_byte_cap(run.doc, run.options.cache_bytes).bytes == 0) return;
  WriteState& w = run.write;
  w.in_cache_grid_s = share_s;
  w.budget_s = std::max(w.budget_s - share_s, 0.0);
}

}  // namespace

std::optional<std::string> skip_cache_if_disabled(const RunContext& run) {
  if (run.options.cache_bytes == 0) return std::string("--cache-bytes 0");
  return std::nullopt;
}

PhaseOutcome run_slc_cache_phase(RunContext& run) {
  WriteState& w = run.write;
  SlcCacheOptions options;
  options.window = w.window;
  const std::optional<uint64_t> drive_bytes = whole_drive_bytes(run.target);
  options.cap_bytes = slc_fill_cap(run.options.cache_bytes, drive_bytes);
  options.flat_stop_bytes = slc_flat_stop(options.cap_bytes, drive_bytes);
  options.budget_s = run.budget.slc_cache_s(w.budget_s);
  if (options.budget_s < kLeastCacheProbeS) {
    run.doc.slc_cache.state = UnitState::undetermined;
    run.doc.slc_cache.evidence = fmt::format("--budget left {:.2f} s for the SLC cache probe: not enough to idle and "
                                             "write", options.budget_s);
    return PhaseOutcome::cut_by_budget("--budget left no time for the SLC cache probe", 0.0);
  }
  // Idles fit the share: a short --budget idles less rather than not write.
  options.idle_s = std::min(options.idle_s, options.budget_s / 4.0);
  options.recovery_idle_s = std::min(options.recovery_idle_s, options.budget_s / 4.0);
  options.seed = run.options.seed;
  options.progress = [&run](int fill, uint64_t written, uint64_t cap) {
    run.observer.message(fmt::format("SLC cache probe: {} {} of at most {} written", fill == 1 ? "fill" : "refill after idling",
                                     format_size(written), format_size(cap)));
  };
  const SlcCacheResult result = run_slc_cache_probe(*run.target.device, options);
  run.doc.slc_cache = result.first.drop ? cache_found(result.first) : cache_not_found(result.first, run.options.cache_bytes);
  run.doc.slc_cache_detail = detail_of(result, options);
  run.doc.write_probe->bytes_written += result.bytes_written;
  run.tally.ios += result.first.latency_us.size() + (result.recovery ? result.recovery->latency_us.size() : 0);
  run.tally.device_time_s += result.elapsed_s;
  // The phases after it share what is left of the write phases' budget, at
  // least what the probe's share left (it may pass it by one batch), less
  // what the grid inside the cache is set aside.
  const double write_phases_s = w.budget_s;
  w.budget_s = std::max(w.budget_s - result.elapsed_s, w.budget_s * (1.0 - kSlcCacheBudgetShare));
  reserve_in_cache_grid(run, run.budget.in_cache_grid_s(write_phases_s));
  if (!result.first.cut_by_budget()) return PhaseOutcome::done(result.elapsed_s);
  return PhaseOutcome::cut_by_budget(
      fmt::format("--budget ended the fill after {} with no lasting drop", format_size(result.first.written_bytes())),
      result.elapsed_s);
}

// Native only when the last fill ran the cache out: the first fill's drop
// with no second fill, a second fill that dropped too, or one that found
// nothing came back. A second fill that ended before a drop left cache free.
std::string write_regime(const ResultDocument& doc) {
  if (doc.slc_cache.state != UnitState::found) return "unknown";
  if (!doc.slc_cache_detail || !doc.slc_cache_detail->recovery) return "native";
  const UnitState refill = doc.slc_cache_detail->recovery->state;
  return refill == UnitState::found || refill == UnitState::absent ? "native" : "unknown";
}

}  // namespace ssdprobe
