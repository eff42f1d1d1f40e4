#include "plot/heatmap_matrix.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace ssdprobe {

const SavedGrid& find_grid(const SavedResult& result, const std::string& grid_name) {
  for (const SavedGrid& grid : result.grids) {
    if (grid.name == grid_name) return grid;
  }
  std::string names;
  for (const SavedGrid& grid : result.grids) names += (names.empty() ? "" : ", ") + grid.name;
  throw Error(ErrorCategory::target,
              fmt::format("{}: has no \"{}\" grid ({})", result.file, grid_name,
                          names.empty() ? "it has no grids: an info document, or a run that timed nothing"
                                        : "it has: " + names));
}

HeatmapMatrix heatmap_matrix(const SavedGrid& grid, HeatmapScale scale) {
  HeatmapMatrix m;
  m.grid = grid.name;
  m.sizes = grid.sizes;
  m.offsets = grid.offsets;
  m.cells = grid.median_us;
  return in_scale(std::move(m), scale);
}

HeatmapMatrix in_scale(HeatmapMatrix m, HeatmapScale scale) {
  m.scale = scale;
  if (scale == HeatmapScale::throughput) {
    // bytes per µs is MB/s; a zero or missing median has no throughput.
    for (size_t row = 0; row < m.cells.size(); ++row) {
      for (double& v : m.cells[row]) {
        v = std::isfinite(v) && v > 0.0 ? static_cast<double>(m.sizes[row]) / v
                                        : std::numeric_limits<double>::quiet_NaN();
      }
    }
  }
  if (scale == HeatmapScale::above_fastest) {
    m.row_base.assign(m.cells.size(), 0.0);
    for (size_t r = 0; r < m.cells.size(); ++r) {
      double fastest = std::numeric_limits<double>::infinity();
      for (double v : m.cells[r]) {
        if (std::isfinite(v)) fastest = std::min(fastest, v);
      }
      if (!std::isfinite(fastest)) continue;
      m.row_base[r] = fastest;
      for (double& v : m.cells[r]) {
        if (std::isfinite(v)) v -= fastest;
      }
    }
  }
  m.max_value = 0.0;
  for (const auto& row : m.cells) {
    for (double v : row) {
      if (std::isfinite(v)) m.max_value = std::max(m.max_value, v);
    }
  }
  return m;
}

}  // namespace ssdprobe
