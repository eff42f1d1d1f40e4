#include "plot/heatmap_fold.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "analysis/stats.h"

namespace ssdprobe {

FoldedMatrix fold_matrix(const HeatmapMatrix& absolute, uint64_t unit) {
  FoldedMatrix folded;
  HeatmapMatrix& m = folded.matrix;
  m.grid = absolute.grid;
  m.sizes = absolute.sizes;
  m.scale = absolute.scale;
  for (uint64_t offset : absolute.offsets) m.offsets.push_back(offset % unit);
  std::sort(m.offsets.begin(), m.offsets.end());
  m.offsets.erase(std::unique(m.offsets.begin(), m.offsets.end()), m.offsets.end());
  for (const auto& row : absolute.cells) {
    std::vector<std::vector<double>> at_phase(m.offsets.size());
    for (size_t j = 0; j < row.size() && j < absolute.offsets.size(); ++j) {
      const auto phase = std::lower_bound(m.offsets.begin(), m.offsets.end(), absolute.offsets[j] % unit);
      if (std::isfinite(row[j])) at_phase[static_cast<size_t>(phase - m.offsets.begin())].push_back(row[j]);
    }
    std::vector<double> cells;
    for (auto& values : at_phase) {
      folded.pooled = std::max(folded.pooled, values.size());
      cells.push_back(values.empty() ? std::numeric_limits<double>::quiet_NaN() : median(values));
    }
    m.cells.push_back(std::move(cells));
  }
  return folded;
}

}  // namespace ssdprobe
