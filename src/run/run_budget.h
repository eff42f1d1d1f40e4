// How one --budget of device time is shared between a run's phases: every
// share and floor in one place. Each phase that times IO asks here for its
// budget, from what the phases before it spent (RunTally).
//
// The parallelism probe is promised kParallelismBudgetShare and runs last
// with whatever the others left, at least that share. Of the rest ("the
// grids' budget"): the read grid gets all of it, or with --write half, and
// the write phases what the read grid left of it: first the SLC cache probe
// (kSlcCacheBudgetShare of them; what follows keeps at least the rest; when
// it measured a cache that comes back, kInCacheGridBudgetShare more is set
// aside for the write grid inside the cache, run last of the write phases),
// then of what is left half for the write grid,
// what the grid left (at least a quarter) for the erase stream, and what
// those two left, at least kWriteParallelismBudgetShare of --budget, for
// the write parallelism probe. The re-read of written space gets what is
// left of the grids' budget, at least a quarter of --budget. Floors make a
// run whose early phases ran long pass --budget by at most their sum.
#pragma once

#include <cstdint>

namespace ssdprobe {

// The parallelism probe stops after 6 rounds whatever its budget, so on a
// drive where the grids settle early it takes well under its share (about
// 1 s on a drive with 60 us reads).
constexpr double kParallelismBudgetShare = 0.10;
constexpr double kWriteParallelismBudgetShare = 0.05;
// The SLC cache probe runs first among the write phases and may take this
// share of their budget (the rest is shared as before, from what it left).
constexpr double kSlcCacheBudgetShare = 0.30;
// When the probe found a cache that came back after idling, the write grid
// inside it (after the native phases) is set aside this share too.
constexpr double kInCacheGridBudgetShare = 0.10;
// The open-units probe, after the write parallelism probe: this share of
// --budget, a floor like the parallelism probes' (on a drive without a
// limit its ladder takes well under a second; it stops at a collapse).
constexpr double kOpenUnitsBudgetShare = 0.05;

// Device time spent so far, in the sums the budget rules use. The grids'
// and the erase stream's time is `device_time_s` (the document's
// run.device_time_s); the write parallelism probe's is kept apart (it is not
// in run.device_time_s, but what follows gets what is left after it), and
// the read parallelism probe's, last, is in neither (nothing after it needs
// a budget; its phase record and section keep its time).
struct RunTally {
  uint64_t ios = 0;  // timed IOs of the grids and the stream
  double device_time_s = 0.0;
  double parallelism_time_s = 0.0;
};

struct RunBudget {
  double total_s = 60.0;  // --budget
  bool write = false;     // --write: the grids' budget is shared with the write phases

  double grids_s() const { return total_s * (1.0 - kParallelismBudgetShare); }
  double read_grid_s() const { return write ? grids_s() / 2.0 : grids_s(); }
  // The write phases' whole budget, after the read grid took `read_elapsed_s`.
  double write_phases_s(double read_elapsed_s) const;
  double slc_cache_s(double write_phases_s) const { return write_phases_s * kSlcCacheBudgetShare; }
  double in_cache_grid_s(double write_phases_s) const { return write_phases_s * kInCacheGridBudgetShare; }
  double write_grid_s(double write_phases_s) const { return write_phases_s / 2.0; }
  double erase_stream_s(double write_phases_s, double grid_elapsed_s) const;
  double write_parallelism_s(double write_phases_s, double grid_elapsed_s, double stream_elapsed_s) const;
  double open_units_s() const { return total_s * kOpenUnitsBudgetShare; }
  double read_written_s(const RunTally& tally) const;
  double read_parallelism_s(const RunTally& tally) const;
};

}  // namespace ssdprobe
