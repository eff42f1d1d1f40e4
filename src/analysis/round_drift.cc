#include "analysis/round_drift.h"

#include "analysis/stats.h"

namespace ssdprobe {

std::vector<double> baseline_medians(const LatencyGrid& first_round) {
  std::vector<double> medians(first_round.cell_count(), 0.0);
  for (size_t cell = 0; cell < first_round.cell_count(); ++cell) {
    if (!first_round.samples[cell].empty()) medians[cell] = median(first_round.samples[cell]);
  }
  return medians;
}

double round_shift_us(std::span<const double> baseline, std::span<const size_t> cells,
                      std::span<const double> latencies_us) {
  std::vector<double> differences;
  differences.reserve(cells.size());
  for (size_t i = 0; i < cells.size() && i < latencies_us.size(); ++i) {
    if (cells[i] < baseline.size() && baseline[cells[i]] > 0.0) {
      differences.push_back(latencies_us[i] - baseline[cells[i]]);
    }
  }
  return differences.empty() ? 0.0 : median(differences);
}

}  // namespace ssdprobe
