#include "analysis/latency_grid.h"

#include <algorithm>

#include "analysis/stats.h"

namespace ssdprobe {

uint64_t LatencyGrid::total_samples() const {
  uint64_t total = 0;
  for (const auto& cell_samples : samples) total += cell_samples.size();
  return total;
}

CellSummary summarize_cell(const std::vector<double>& samples) {
  CellSummary summary;
  summary.count = samples.size();
  if (samples.empty()) return summary;
  std::vector<double> sorted(samples);
  std::sort(sorted.begin(), sorted.end());
  summary.median_us = sorted_quantile(sorted, 0.5);
  summary.p10_us = sorted_quantile(sorted, 0.10);
  summary.p90_us = sorted_quantile(sorted, 0.90);
  summary.p99_us = sorted_quantile(sorted, 0.99);
  return summary;
}

}  // namespace ssdprobe
