// What a misaligned start costs, stated from the latency grids a run
// measured anyway (the read grid, and with --write the write grid and the
// read-written grid).
//
// The model is what a filesystem does. A layer (partition, md data area,
// logical volume, filesystem) starting at absolute disk offset S issues
// requests of n bytes at multiples of its block b inside itself, so request k
// lands at disk phase
//     phase_k(S) = (S + k*b) mod W
// where W is the grid's period (below); an aligned layer (S = 0 mod W) puts
// request k at phase (k*b) mod W. k runs over one full period,
// k = 0 .. lcm(W, b)/b - 1 (= W/b when b divides W), every request weighing
// the same. With latency(n, p) the median of grid cell (row n, column for p):
//     ratio = mean_k latency(n, phase_k(S)) / mean_k latency(n, phase_k(0))
// The share of requests crossing a boundary of the unit u (read page for
// reads, write unit for writes) is the share of k with
//     phase_k mod u + n > u.
// Note that with b dividing W the phases at S are {S mod b + m*b}: only
// S mod b matters, so a start aligned to the layer's block costs exactly 1
// (the same cells are compared), however far it is from a unit boundary.
//
// Where the phases come from:
// - Dense grids (read, read-written; probes/grid_plan.h plan_read_grid):
//   offsets every logical block from 0 across the window, so every phase that
//   is a multiple of the offset step is a column and the lookup is exact.
//   W = last offset + step (128 KiB, the window: every power-of-two
//   candidate divides it). A 3 x 2^k unit (48, 96 KiB) does not divide W,
//   so its phases are weighted slightly unevenly over one W; the grid measured
//   no wider span, so none is available.
// - Sparse grids (write; plan_write_grid): offsets at 0, powers of two and
//   3 x powers of two only. A needed phase p stands in for by a column o of
//   the same row with the same pattern against u: the same number of u units
//   touched (ceil((p mod u + n)/u)) and the same partly covered first / last
//   unit. Among several, a column at the same phase mod u wins, then one with
//   the same alignment (largest power of two dividing the phase, so smaller
//   power-of-two units such as a 4 KiB mapping unit see the same ends), then
//   the smallest offset. The evidence names every substitution. Only
//   phase mod u matters then, so W = lcm(u, b). Without u, or when a
//   phase has no column with its pattern (e.g. a 4 KiB write straddling a
//   16 KiB unit: the write grid has no 4 KiB column at 12.5..15.5 KiB), the
//   cost is "not determined".
// The request size n must be a row of the grid; otherwise "not determined",
// naming the sizes there are.
//
// Pooling (dense grids): a phase's latency is the median of its cell pooled
// with every cell of the same row whose requests touch the same number of
// units of every power-of-two size from the offset step to W (the same
// boundaries crossed): the unit inference's own model, under which those
// cells are repeats of one experiment. A run that settled its page after a
// few samples per cell still states a cost from all of them.
//
// Confidence: a percentile bootstrap. Each replicate redraws every used
// cell's samples with replacement (as analysis/unit_inference.h does, with
// the same core/random.h generator and seeding, so a run is reproducible from
// its seed), recomputes the cell medians and the ratio; the interval is the
// 2.5 % and 97.5 % quantiles of the replicates. The cost is significant only
// when the whole interval lies above 1. Noisy cells widen the interval. As
// in unit_inference, samples are first clamped to their cell's median +/- 8
// sigmas of the row: the medians do not move, but a cell of three samples
// holding one multi-millisecond hiccup no longer makes the hiccup the
// resampled median in a quarter of the replicates (the drive itself would
// almost never give such a median), which made intervals on a noisy drive
// span 0.5-2.3 around a true 1.2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/latency_grid.h"

namespace ssdprobe {

struct MisalignmentCostQuery {
  uint64_t start_bytes = 0;          // absolute disk offset of the layer
  uint64_t request_bytes = 4096;     // n
  uint64_t request_alignment = 4096; // b: the layer's block
  std::optional<uint64_t> unit;      // page (reads) or write unit (writes) for the crossing share
  bool sparse_offsets = false;       // true for a write grid: use the substitution rule above
  uint64_t seed = 1;
};

struct MisalignmentCost {
  bool determined = false;
  double ratio = 1.0, ratio_low = 1.0, ratio_high = 1.0;  // latency at S / latency aligned, 95 % interval
  bool significant = false;                               // ratio_low > 1
  double aligned_median_us = 0, at_start_median_us = 0;   // mean over k of the cell medians
  std::optional<double> crossing_share;                   // at S (0..1), when unit is known
  std::optional<double> aligned_crossing_share;
  std::string evidence;                                   // one sentence a user can read: which cells, which substitution
};

// Bootstrap replicates behind the interval.
constexpr int kMisalignmentResamples = 200;

MisalignmentCost misalignment_cost(const LatencyGrid& grid, const MisalignmentCostQuery& query);

// The request sizes worth stating for a layer: its block, and the unit when
// it is in the grid (ascending, no duplicates). The block is listed even when
// the grid lacks it, so the caller's "not determined" names the sizes there are.
std::vector<uint64_t> misalignment_request_sizes(const LatencyGrid& grid, uint64_t layer_block,
                                                 std::optional<uint64_t> unit);

}  // namespace ssdprobe
