// Writes that stalled far beyond the grid's ordinary writes: a full drive
// makes a share of writes wait for garbage collection to free a block (or
// other background work holds them), milliseconds against a write's
// hundred microseconds. A heavy share of them hides the write unit, and no
// larger budget helps: more rounds meet as many stalls. The verdict says so
// (run/run_cautions.h, run/unit_answers.h) instead of asking for more budget.
#pragma once

#include <cstdint>

#include "analysis/latency_grid.h"

namespace ssdprobe {

// A write stalls when it is slower than both:
// - kStallRatio x its request size's median write: within one size a
//   write's offset changes its cost by at most one more program unit and
//   two partly covered ones, under 3x the size's typical write on the
//   simulated and emulated drives; a garbage-collection wait is ten times
//   a write or more;
// - its size's median plus kStallSigmas robust sigmas of the size's noise
//   (1.4826 x the MAD of each write's distance from its own cell's median,
//   so the offsets' structure is not counted as noise): a noisy size's
//   ordinary tail does not reach it (under normal noise 10 sigma is a 1e-23
//   event), whatever its spread.
// Each size is its own reference because a 256 KiB write costs several
// times a 4 KiB one: one median for the grid would call large writes stalls.
constexpr double kStallRatio = 4.0;
constexpr double kStallSigmas = 10.0;
// Stalls are heavy (they can move what the inference decides from) when
// they are at least 5 % of the grid's writes: under that, however slow, they
// move a cell's median by under 3 points of percentile and a quartile by
// under 4, inside the noise the stopping rule accepts (the share
// run/run_cautions.h holds for host delays). And at least 20 of them, so a
// small grid's few outliers are not a diagnosis: even an ordinary tail as
// common as 1 % past the line gives 20 of at most 400 writes (an expected 4)
// with a probability under 1e-7.
constexpr double kHeavyStallShare = 0.05;
constexpr uint64_t kHeavyStallCount = 20;

struct WriteStalls {
  uint64_t writes = 0;              // timed writes of the grid
  uint64_t stalled = 0;             // of them, stalls (above)
  double median_us = 0.0;           // the grid's median write
  double stalled_median_us = 0.0;   // the stalls' median (0 without stalls)
  double threshold_us = 0.0;        // the lowest line a write had to pass to be a stall (its size's)
  bool heavy() const {
    return stalled >= kHeavyStallCount && static_cast<double>(stalled) >= kHeavyStallShare * static_cast<double>(writes);
  }
};

// The stalls of a write grid's latencies, raw or drift-corrected.
WriteStalls classify_write_stalls(const LatencyGrid& grid);
// The grid less its stalls: what a write grid among heavy stalls is analysed
// from (probes/grid_probe.h). A stall is the drive's wait for a free block,
// added to a write wherever it lands, not the write's own cost.
LatencyGrid without_stalls(const LatencyGrid& grid);

}  // namespace ssdprobe
