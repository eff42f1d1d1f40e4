#include "analysis/write_stalls.h"

#include <algorithm>
#include <vector>

#include "analysis/stats.h"

namespace ssdprobe {
namespace {

// Every timed write of one request size, over all its offsets.
std::vector<double> row_samples(const LatencyGrid& grid, size_t row) {
  std::vector<double> values;
  for (size_t column = 0; column < grid.offsets.size(); ++column) {
    const auto& cell = grid.cell(row, column);
    values.insert(values.end(), cell.begin(), cell.end());
  }
  return values;
}

// The noise of one size's writes: the robust sigma of each write's distance
// from its own cell's median, so the row's structure (straddling writes
// costing more than aligned ones) is not taken for noise.
double row_noise_sigma(const LatencyGrid& grid, size_t row) {
  std::vector<double> residuals;
  for (size_t column = 0; column < grid.offsets.size(); ++column) {
    const auto& cell = grid.cell(row, column);
    if (cell.empty()) continue;
    const double center = median(cell);
    for (double us : cell) residuals.push_back(us - center);
  }
  return robust_sigma(residuals);
}

double stall_line(const LatencyGrid& grid, size_t row, std::span<const double> values) {
  const double typical = median(values);
  return std::max(kStallRatio * typical, typical + kStallSigmas * row_noise_sigma(grid, row));
}

}  // namespace

WriteStalls classify_write_stalls(const LatencyGrid& grid) {
  WriteStalls stalls;
  std::vector<double> all, slow;
  for (size_t row = 0; row < grid.sizes.size(); ++row) {
    const std::vector<double> values = row_samples(grid, row);
    if (values.empty()) continue;
    const double line = stall_line(grid, row, values);
    if (stalls.threshold_us == 0.0 || line < stalls.threshold_us) stalls.threshold_us = line;
    for (double us : values) {
      if (us > line) slow.push_back(us);
    }
    all.insert(all.end(), values.begin(), values.end());
  }
  stalls.writes = all.size();
  stalls.stalled = slow.size();
  stalls.median_us = median(all);
  stalls.stalled_median_us = slow.empty() ? 0.0 : median(slow);
  return stalls;
}

LatencyGrid without_stalls(const LatencyGrid& grid) {
  LatencyGrid kept(grid.sizes, grid.offsets);
  for (size_t row = 0; row < grid.sizes.size(); ++row) {
    const std::vector<double> values = row_samples(grid, row);
    if (values.empty()) continue;
    const double line = stall_line(grid, row, values);
    for (size_t column = 0; column < grid.offsets.size(); ++column) {
      for (double us : grid.cell(row, column)) {
        if (us <= line) kept.cell(row, column).push_back(us);
      }
    }
  }
  return kept;
}

}  // namespace ssdprobe
