// Drift between sampling rounds. The grid probe samples in rounds, and later
// rounds spend most IOs on the cells that decide the answer. If the drive
// changes speed between rounds (thermal throttling, background garbage
// collection, a cache filling, a neighbour's load), those cells would see a
// different drive than the rest and their medians would carry the change as
// if it were a unit boundary. Every round after the first therefore gets a
// shift: the median, over its samples, of (sample - the same cell's round-1
// median). The expected difference is zero for every cell whatever its
// geometry, so the shift measures drift alone; subtracting it puts all rounds
// on round 1's footing. Shifts are additive: a drive that slows down by a
// factor leaves a residual proportional to latency, which the per-size
// intercepts of the step model absorb to first order.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "analysis/latency_grid.h"

namespace ssdprobe {

// Per-cell medians of the first round (0 where a cell has no sample).
std::vector<double> baseline_medians(const LatencyGrid& first_round);

// The shift of one round: `cells[i]` is the cell of `latencies_us[i]`. Cells
// without a baseline are ignored; 0 when nothing can be compared.
double round_shift_us(std::span<const double> baseline, std::span<const size_t> cells,
                      std::span<const double> latencies_us);

}  // namespace ssdprobe
