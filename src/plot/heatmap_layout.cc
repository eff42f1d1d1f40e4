#include "plot/heatmap_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "core/units.h"
#include "plot/heatmap_scale.h"

namespace ssdprobe {
namespace {

constexpr double kKiB = 1024.0;
constexpr size_t kMaxTicks = 9;           // labelled ticks on a byte axis
constexpr size_t kMaxColumnLabels = 24;   // categorical columns labelled one by one up to this
// Dashed lines closer than this cover more than a twentieth of the cells
// between them and read as a texture rather than as boundaries.
constexpr double kMinBoundaryGapPx = 30.0;
// A byte axis gives each column at least this much: a 512 B column of a
// read grid (256 across 128 KiB) stays a visible stripe, so the one column in
// eight or thirty-two where an IO is aligned (a bright column of a
// throughput map) can be seen.
constexpr int kMinColumnPx = 3;
// Pixels of the page outside the plot areas.
constexpr int kLeft = 80, kRight = 25, kTop = 95, kColourbox = 170, kPlotWidth = 440, kPlotHeight = 380;
constexpr int kMinPlotPx = 120;  // smallest plot area an asked size may leave a panel

std::string kib(uint64_t bytes) { return fmt::format("{:g}", static_cast<double>(bytes) / kKiB); }

std::string ordinal(uint64_t n) {
  const char* suffix = n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return fmt::format("{}{}", n, suffix);
}

bool has_missing_cell(const HeatmapMatrix& m) {
  for (const auto& row : m.cells) {
    for (double v : row) {
      if (!std::isfinite(v)) return true;
    }
  }
  return false;
}

// What grey means in this panel: cells without samples, rows of sizes
// another panel timed and this grid did not.
std::string grey_note(const HeatmapFigure& figure, const HeatmapPanel& panel) {
  const bool missing_rows = panel.matrix.sizes.size() < figure.row_sizes.size();
  const bool missing_cells = has_missing_cell(panel.matrix);
  if (missing_rows && missing_cells) return "; grey: no samples, or a size this grid did not time";
  if (missing_rows) return "; grey rows: sizes this grid did not time";
  return missing_cells ? "; grey: no samples" : "";
}

// Never 0 (repeated offsets or a 0-byte row in a damaged document): every
// loop over ticks and lines steps by it.
uint64_t column_step(const HeatmapMatrix& m) {
  uint64_t step = 4096;
  if (m.offsets.size() >= 2 && m.offsets[1] > m.offsets[0]) step = m.offsets[1] - m.offsets[0];
  else if (m.offsets.size() < 2 && !m.sizes.empty() && m.sizes.front() > 0) step = m.sizes.front();  // one column: as wide as the smallest IO
  return step;
}

// Every `every`th multiple of the unit as a line, `every` doubled until the
// lines are kMinBoundaryGapPx apart on a plot `width_px` wide.
uint64_t boundary_thinning(uint64_t unit, double axis_kib, int width_px) {
  const double gap_px = static_cast<double>(unit) / kKiB / axis_kib * width_px;
  uint64_t every = 1;
  while (gap_px * static_cast<double>(every) < kMinBoundaryGapPx) every *= 2;
  return every;
}

void linear_x(const HeatmapFigure& figure, const HeatmapPanel& panel, int width_px, PanelAxes& axes) {
  const HeatmapMatrix& m = panel.matrix;
  const uint64_t step = column_step(m);
  const uint64_t first = m.offsets.empty() ? 0 : m.offsets.front();
  const uint64_t end = m.offsets.empty() ? step : m.offsets.back() + step;
  axes.x_low = static_cast<double>(first) / kKiB;
  axes.x_high = static_cast<double>(end) / kKiB;
  // Ticks at multiples of the detected unit (of the column step without
  // one, or inside one folded unit), doubled until at most kMaxTicks fit.
  uint64_t tick = std::max<uint64_t>(panel.folded_at ? step : panel.unit_bytes.value_or(step), 1);
  while ((end - first) / tick + 1 > kMaxTicks && tick < (uint64_t{1} << 62)) tick *= 2;
  for (uint64_t at = (first + tick - 1) / tick * tick; at <= end; at += tick) {
    axes.x_ticks.push_back({static_cast<double>(at) / kKiB, kib(at)});
  }
  const std::string grey = grey_note(figure, panel);
  if (panel.folded_at) {
    axes.x_label = fmt::format("offset modulo {} (KiB): each cell the median of up to {} cells, one per {} of the grid",
                               format_size(*panel.folded_at), panel.fold_pooled, format_size(*panel.folded_at));
    axes.x_label += fmt::format("\nleft and right edges: {} boundaries{}",
                                panel.unit_bytes ? panel.unit_name : "candidate", grey);
    return;
  }
  std::string label = fmt::format("offset inside the slot (KiB); a cell covers [offset, offset + {})", format_size(step));
  if (panel.unit_bytes) {
    const uint64_t every = boundary_thinning(*panel.unit_bytes, axes.x_high - axes.x_low, width_px);
    const uint64_t spacing = *panel.unit_bytes * every;
    for (uint64_t at = (first / spacing + 1) * spacing; at < end; at += spacing) {
      axes.boundaries.push_back(static_cast<double>(at) / kKiB);
    }
    label += every == 1 ? fmt::format("\ndashed: {} boundaries (every {})", panel.unit_name, format_size(spacing))
                        : fmt::format("\ndashed: every {} {} boundary (each {}; the {} is {})", ordinal(every),
                                      panel.unit_name, format_size(spacing), panel.unit_name,
                                      format_size(*panel.unit_bytes));
  } else {
    label += fmt::format("\nno {} found: no boundary lines", panel.unit_name);
  }
  axes.x_label = label + grey;
}

void categorical_x(const HeatmapFigure& figure, const HeatmapPanel& panel, PanelAxes& axes) {
  const HeatmapMatrix& m = panel.matrix;
  const size_t n = m.offsets.size();
  axes.x_low = -0.5;
  axes.x_high = static_cast<double>(n) - 0.5;
  const size_t every = (n + kMaxColumnLabels - 1) / kMaxColumnLabels;
  for (size_t j = 0; j < n; ++j) {
    if (j % std::max<size_t>(every, 1) == 0) axes.x_ticks.push_back({static_cast<double>(j), kib(m.offsets[j])});
  }
  axes.rotate_x_labels = n > 10;
  std::string label = panel.folded_at ? fmt::format("offset modulo {} (KiB): one column per phase timed, not to scale; "
                                                    "each the median of up to {} cells",
                                                    format_size(*panel.folded_at), panel.fold_pooled)
                                      : "offset (KiB): one column per offset timed, not to scale";
  if (panel.folded_at) {
    label += "\nleft and right edges: " + std::string(panel.unit_bytes ? panel.unit_name : "candidate") + " boundaries";
  } else if (panel.unit_bytes) {
    for (size_t j = 1; j < n; ++j) {
      if (m.offsets[j] % *panel.unit_bytes == 0) axes.boundaries.push_back(static_cast<double>(j) - 0.5);
    }
    label += fmt::format("\ndashed: before each offset that is a multiple of the {} ({})", panel.unit_name,
                         format_size(*panel.unit_bytes));
  } else {
    label += fmt::format("\nno {} found: no boundary lines", panel.unit_name);
  }
  axes.x_label = label + grey_note(figure, panel);
}

// Column x of offset j in the panel's axes.
std::pair<double, double> column_span(const HeatmapPanel& panel, size_t j) {
  const HeatmapMatrix& m = panel.matrix;
  if (panel.categorical_offsets) return {static_cast<double>(j) - 0.5, static_cast<double>(j) + 0.5};
  const double start = static_cast<double>(m.offsets[j]) / kKiB;
  return {start, start + static_cast<double>(column_step(m)) / kKiB};
}

// The plot width a panel's columns need: room for the labels of categorical
// columns, kMinColumnPx per column on a byte axis.
int natural_plot_width(const HeatmapPanel& panel) {
  const int columns = static_cast<int>(panel.matrix.offsets.size());
  return std::max(kPlotWidth, columns * (panel.categorical_offsets ? 26 : kMinColumnPx));
}

// 1, 2 or 5 times a power of ten, the first at least `rough`.
double round_step(double rough) {
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= rough) return m * power;
  }
  return 10.0 * power;
}

}  // namespace

PanelAxes panel_axes(const HeatmapFigure& figure, size_t index, const FigureLayout& layout) {
  const HeatmapPanel& panel = figure.panels[index];
  PanelAxes axes;
  if (panel.categorical_offsets) {
    categorical_x(figure, panel, axes);
  } else {
    linear_x(figure, panel, layout.plot_width_px.at(index), axes);
  }
  const std::vector<uint64_t>& rows = figure.row_sizes.empty() ? panel.matrix.sizes : figure.row_sizes;
  axes.y_low = -0.5;
  axes.y_high = static_cast<double>(rows.size()) - 0.5;
  for (size_t i = 0; i < rows.size(); ++i) axes.y_ticks.push_back({static_cast<double>(i), kib(rows[i])});
  for (uint64_t size : panel.matrix.sizes) {
    axes.row_y.push_back(static_cast<double>(std::lower_bound(rows.begin(), rows.end(), size) - rows.begin()));
  }
  axes.y_label = "request size (KiB)";
  return axes;
}

std::vector<CellBox> cell_boxes(const HeatmapPanel& panel, const PanelAxes& axes) {
  std::vector<CellBox> boxes;
  const HeatmapMatrix& m = panel.matrix;
  for (size_t i = 0; i < m.cells.size() && i < axes.row_y.size(); ++i) {
    for (size_t j = 0; j < m.cells[i].size() && j < m.offsets.size(); ++j) {
      const double v = m.cells[i][j];
      if (!std::isfinite(v)) continue;
      const auto [x_low, x_high] = column_span(panel, j);
      boxes.push_back({x_low, x_high, axes.row_y[i] - 0.5, axes.row_y[i] + 0.5, v});
    }
  }
  return boxes;
}

std::vector<AxisTick> colour_ticks(const HeatmapFigure& figure) {
  const double low = figure.colour_min, high = drawn_colour_top(figure);
  const ClippedCells clipped = clipped_cells(figure);
  const double step = round_step((high - low) / 5.0);
  std::vector<AxisTick> ticks;
  // A scale that does not start at zero has its start marked: the bottom
  // colour's number is on the bar, not left to be guessed from the next tick.
  const bool bottom_marked = clipped.below > 0 || low != 0.0;
  if (bottom_marked) ticks.push_back({low, (clipped.below > 0 ? "≤ " : "") + colour_number(low)});
  // Counted, not summed: a step below the doubles' spacing near a huge MAX
  // (--range 1e15:1000000000000000.2) would never move `at`.
  const double first = std::ceil(low / step) * step;
  for (int i = 0; i <= 50; ++i) {
    const double at = first + i * step;
    if (!(at <= high + step * 1e-9)) break;
    // Room for the end marks: a round tick within half a step of one is left out.
    if (bottom_marked && at < low + step / 2) continue;
    if (clipped.above > 0 && at > high - step / 2) continue;
    ticks.push_back({at, colour_number(std::fabs(at) < step * 1e-9 ? 0.0 : at)});
  }
  if (clipped.above > 0) ticks.push_back({high, "≥ " + colour_number(high)});
  return ticks;
}

std::string panel_title(const HeatmapFigure& figure, size_t index) {
  const HeatmapPanel& panel = figure.panels[index];
  bool shared_name = false;
  for (size_t i = 0; i < figure.panels.size(); ++i) {
    if (i != index && figure.panels[i].drive == panel.drive) shared_name = true;
  }
  std::string first = panel.drive.empty() ? "unknown drive" : panel.drive;
  if (shared_name) first += " (" + std::filesystem::path(panel.source_file).filename().string() + ")";
  std::string title = first + "\n" + panel.verdict;
  return panel.fold_note.empty() ? title : title + "\n" + panel.fold_note;
}

FigureLayout figure_layout(const HeatmapFigure& figure) {
  // Pixels first, then fractions of the page for gnuplot's screen coordinates.
  bool rotated = false;
  std::vector<int> plots;
  int natural_plots = 0;
  for (const HeatmapPanel& panel : figure.panels) {
    plots.push_back(natural_plot_width(panel));
    natural_plots += plots.back();
    rotated = rotated || (panel.categorical_offsets && panel.matrix.offsets.size() > 10);
  }
  const int bottom = rotated ? 105 : 80;
  // A third title line says what a folded panel was folded at.
  const bool folded = std::any_of(figure.panels.begin(), figure.panels.end(),
                                  [](const HeatmapPanel& p) { return !p.fold_note.empty(); });
  const int top = kTop + (folded ? 16 : 0);
  const int panel_count = static_cast<int>(figure.panels.size());
  const int fixed_width = panel_count * (kLeft + kRight) + kColourbox, fixed_height = top + bottom;
  int plot_height = kPlotHeight;
  if (figure.width_px > 0 || figure.height_px > 0) {
    const int least_width = fixed_width + panel_count * kMinPlotPx, least_height = fixed_height + kMinPlotPx;
    const bool too_narrow = figure.width_px > 0 && figure.width_px < least_width;
    if (too_narrow || (figure.height_px > 0 && figure.height_px < least_height)) {
      throw Error(ErrorCategory::usage,
                  fmt::format("--size {}x{} is too small for {} panel{}: at least {}x{}", figure.width_px,
                              figure.height_px, panel_count, panel_count == 1 ? "" : "s", least_width, least_height));
    }
    if (figure.width_px > 0) {
      // The plot areas share what the margins leave, in proportion to what each would have had.
      const double share = static_cast<double>(figure.width_px - fixed_width) / std::max(natural_plots, 1);
      int given = 0;
      for (size_t i = 0; i < plots.size(); ++i) {
        plots[i] = i + 1 == plots.size() ? figure.width_px - fixed_width - given
                                         : static_cast<int>(std::lround(plots[i] * share));
        given += plots[i];
      }
    }
    if (figure.height_px > 0) plot_height = figure.height_px - fixed_height;
  }
  FigureLayout layout;
  layout.height_px = fixed_height + plot_height;
  layout.plot_height_px = plot_height;
  int x = 0;
  for (int plot : plots) x += kLeft + plot + kRight;
  layout.width_px = x + kColourbox;
  const double W = layout.width_px, H = layout.height_px;
  x = 0;
  for (int plot : plots) {
    const int w = kLeft + plot + kRight;
    layout.panels.push_back({(x + kLeft) / W, (x + w - kRight) / W, 1.0 - top / H, bottom / H});
    layout.plot_width_px.push_back(plot);
    x += w;
  }
  layout.colourbox_left = (x + 10) / W;
  layout.colourbox_width = 22 / W;
  layout.colourbox_bottom = bottom / H;
  layout.colourbox_height = plot_height / H;
  return layout;
}

}  // namespace ssdprobe
