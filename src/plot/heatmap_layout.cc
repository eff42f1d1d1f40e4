#include "plot/heatmap_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr double kKiB = 1024.0;
constexpr size_t kMaxTicks = 9;           // labelled ticks on a byte axis
constexpr size_t kMaxBoundaryLines = 64;  // more would hide the cells
constexpr size_t kMaxColumnLabels = 24;   // categorical columns labelled one by one up to this

std::string kib(uint64_t bytes) { return fmt::format("{:g}", static_cast<double>(bytes) / kKiB); }

bool has_missing_cell(const HeatmapMatrix& m) {
  for (const auto& row : m.cells) {
    for (double v : row) {
      if (!std::isfinite(v)) return true;
    }
  }
  return false;
}

uint64_t column_step(const HeatmapMatrix& m) {
  if (m.offsets.size() >= 2) return m.offsets[1] - m.offsets[0];
  return m.sizes.empty() ? 4096 : m.sizes.front();  // one column: as wide as the smallest IO
}

void linear_x(const HeatmapPanel& panel, PanelAxes& axes) {
  const HeatmapMatrix& m = panel.matrix;
  const uint64_t step = column_step(m);
  const uint64_t first = m.offsets.empty() ? 0 : m.offsets.front();
  const uint64_t end = m.offsets.empty() ? step : m.offsets.back() + step;
  axes.x_low = static_cast<double>(first) / kKiB;
  axes.x_high = static_cast<double>(end) / kKiB;
  // Ticks at multiples of the detected unit (of the column step without
  // one), doubled until at most kMaxTicks fit.
  uint64_t tick = panel.unit_bytes.value_or(step);
  while ((end - first) / tick + 1 > kMaxTicks) tick *= 2;
  for (uint64_t at = (first + tick - 1) / tick * tick; at <= end; at += tick) {
    axes.x_ticks.push_back({static_cast<double>(at) / kKiB, kib(at)});
  }
  std::string label = fmt::format("offset inside the slot (KiB); a cell covers [offset, offset + {})", format_size(step));
  if (panel.unit_bytes) {
    const uint64_t unit = *panel.unit_bytes;
    std::vector<double> lines;
    for (uint64_t at = (first / unit + 1) * unit; at < end; at += unit) lines.push_back(static_cast<double>(at) / kKiB);
    if (lines.size() <= kMaxBoundaryLines) axes.boundaries = std::move(lines);
    label += fmt::format("\ndashed: {} boundaries (every {})", panel.unit_name, format_size(unit));
  } else {
    label += fmt::format("\nno {} found: no boundary lines", panel.unit_name);
  }
  if (has_missing_cell(m)) label += "; grey: no samples";
  axes.x_label = label;
}

void categorical_x(const HeatmapPanel& panel, PanelAxes& axes) {
  const HeatmapMatrix& m = panel.matrix;
  const size_t n = m.offsets.size();
  axes.x_low = -0.5;
  axes.x_high = static_cast<double>(n) - 0.5;
  const size_t every = (n + kMaxColumnLabels - 1) / kMaxColumnLabels;
  for (size_t j = 0; j < n; ++j) {
    if (j % std::max<size_t>(every, 1) == 0) axes.x_ticks.push_back({static_cast<double>(j), kib(m.offsets[j])});
  }
  axes.rotate_x_labels = n > 10;
  std::string label = "offset (KiB): one column per offset timed, not to scale";
  if (panel.unit_bytes) {
    for (size_t j = 1; j < n; ++j) {
      if (m.offsets[j] % *panel.unit_bytes == 0) axes.boundaries.push_back(static_cast<double>(j) - 0.5);
    }
    label += fmt::format("\ndashed: before each offset that is a multiple of the {} ({})", panel.unit_name,
                         format_size(*panel.unit_bytes));
  } else {
    label += fmt::format("\nno {} found: no boundary lines", panel.unit_name);
  }
  if (has_missing_cell(m)) label += "; grey: no samples";
  axes.x_label = label;
}

// Column x of offset j in the panel's axes.
std::pair<double, double> column_span(const HeatmapPanel& panel, size_t j) {
  const HeatmapMatrix& m = panel.matrix;
  if (panel.categorical_offsets) return {static_cast<double>(j) - 0.5, static_cast<double>(j) + 0.5};
  const double start = static_cast<double>(m.offsets[j]) / kKiB;
  return {start, start + static_cast<double>(column_step(m)) / kKiB};
}

}  // namespace

PanelAxes panel_axes(const HeatmapPanel& panel) {
  PanelAxes axes;
  if (panel.categorical_offsets) {
    categorical_x(panel, axes);
  } else {
    linear_x(panel, axes);
  }
  const auto& sizes = panel.matrix.sizes;
  axes.y_low = -0.5;
  axes.y_high = static_cast<double>(sizes.size()) - 0.5;
  for (size_t i = 0; i < sizes.size(); ++i) axes.y_ticks.push_back({static_cast<double>(i), kib(sizes[i])});
  axes.y_label = "request size (KiB)";
  return axes;
}

std::vector<CellBox> cell_boxes(const HeatmapPanel& panel, const PanelAxes&) {
  std::vector<CellBox> boxes;
  const HeatmapMatrix& m = panel.matrix;
  for (size_t i = 0; i < m.cells.size(); ++i) {
    for (size_t j = 0; j < m.cells[i].size() && j < m.offsets.size(); ++j) {
      const double v = m.cells[i][j];
      if (!std::isfinite(v)) continue;
      const auto [x_low, x_high] = column_span(panel, j);
      boxes.push_back({x_low, x_high, static_cast<double>(i) - 0.5, static_cast<double>(i) + 0.5, v});
    }
  }
  return boxes;
}

std::string panel_title(const HeatmapFigure& figure, size_t index) {
  const HeatmapPanel& panel = figure.panels[index];
  bool shared_name = false;
  for (size_t i = 0; i < figure.panels.size(); ++i) {
    if (i != index && figure.panels[i].drive == panel.drive) shared_name = true;
  }
  std::string first = panel.drive.empty() ? "unknown drive" : panel.drive;
  if (shared_name) first += " (" + std::filesystem::path(panel.source_file).filename().string() + ")";
  return first + "\n" + panel.verdict;
}

FigureLayout figure_layout(const HeatmapFigure& figure) {
  // Pixels first, then fractions of the page for gnuplot's screen coordinates.
  constexpr int kLeft = 80, kRight = 25, kTop = 95, kColourbox = 170, kPlotWidth = 440;
  bool rotated = false;
  std::vector<int> widths;
  for (const HeatmapPanel& panel : figure.panels) {
    const size_t columns = panel.matrix.offsets.size();
    // Categorical columns get room for their labels; a byte axis a fixed width.
    const int plot = panel.categorical_offsets ? std::max(kPlotWidth, static_cast<int>(columns) * 26) : kPlotWidth;
    widths.push_back(kLeft + plot + kRight);
    rotated = rotated || (panel.categorical_offsets && columns > 10);
  }
  const int bottom = rotated ? 105 : 80;
  const int plot_height = 380;
  FigureLayout layout;
  layout.height_px = kTop + plot_height + bottom;
  int x = 0;
  for (int w : widths) x += w;
  layout.width_px = x + kColourbox;
  const double W = layout.width_px, H = layout.height_px;
  x = 0;
  for (int w : widths) {
    layout.panels.push_back({(x + kLeft) / W, (x + w - kRight) / W, 1.0 - kTop / H, bottom / H});
    x += w;
  }
  layout.colourbox_left = (x + 10) / W;
  layout.colourbox_width = 22 / W;
  layout.colourbox_bottom = bottom / H;
  layout.colourbox_height = plot_height / H;
  return layout;
}

}  // namespace ssdprobe
