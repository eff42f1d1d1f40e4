// The numbers a heatmap shows, taken from one saved grid: the same matrix
// whether gnuplot draws it (`ssdprobe plot`) or the comparison's HTML report
// inlines it, so both pictures mean the same thing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/saved_result.h"

namespace ssdprobe {

enum class HeatmapScale {
  absolute,      // median latency (µs), colour scale from the fastest cell
  above_fastest, // µs above the fastest cell of the same request size (row)
  throughput     // MB/s (10^6 bytes/s): the row's request size over the cell's median latency
};

struct HeatmapMatrix {
  std::string grid;                      // the grid's name: read, write, read-written
  std::vector<uint64_t> sizes, offsets;  // rows, columns (bytes)
  std::vector<std::vector<double>> cells;  // [size][offset], NaN where the grid has no samples
  HeatmapScale scale = HeatmapScale::absolute;
  double max_value = 0.0;                // largest finite cell (0 when none)
  // above_fastest: what was subtracted from each row (its fastest median),
  // so a rule about latency (the colour scale's "far out") can judge the
  // row's cells as latencies; empty for the other scales.
  std::vector<double> row_base;
};

// Throws Error(target) naming the file and the grids it has when it has no
// grid of that name (an `info` document has none).
const SavedGrid& find_grid(const SavedResult& result, const std::string& grid_name);

HeatmapMatrix heatmap_matrix(const SavedGrid& grid, HeatmapScale scale);

// An absolute (median latency) matrix in another scale: what heatmap_matrix
// does after taking the medians, for a matrix made some other way (folded).
HeatmapMatrix in_scale(HeatmapMatrix absolute, HeatmapScale scale);

}  // namespace ssdprobe
