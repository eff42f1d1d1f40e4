// Where everything of a heatmap figure goes, decided in C++ rather than in
// gnuplot so it can be tested without gnuplot: each cell's box, the axes'
// ticks and labels, the unit boundary lines, the panels' places on the page.
//
// A grid with evenly spaced offsets (the read grid: every logical block
// across 128 KiB) is drawn on a true byte axis in KiB: the cell of offset O
// covers [O, O + step), so a line at a multiple of the unit is exactly the
// left edge of the aligned column. Uneven offsets (the write grid) become
// one labelled column each, and the axis label says it is not to scale.
// Rows are the request sizes of all panels, one per row, labelled in KiB:
// the same size is on the same row in every panel. Unit boundary lines are
// thinned to every Nth (and the label says so) where they would be closer
// than a few pixels and hide the cells between them.
#pragma once

#include <string>
#include <vector>

#include "plot/heatmap_figure.h"

namespace ssdprobe {

struct AxisTick {
  double at;
  std::string label;
};

struct PanelAxes {
  double x_low = 0, x_high = 0, y_low = 0, y_high = 0;
  std::vector<AxisTick> x_ticks, y_ticks;
  bool rotate_x_labels = false;
  std::string x_label, y_label;
  std::vector<double> boundaries;  // x of each vertical unit boundary line
  std::vector<double> row_y;       // y of each of the panel's matrix rows (its size's row in the figure)
};

struct CellBox {
  double x_low, x_high, y_low, y_high, value;
};

struct PanelBox {
  double left, right, top, bottom;  // screen fractions (0 = left/bottom)
};
struct FigureLayout {
  int width_px = 0, height_px = 0;
  std::vector<PanelBox> panels;
  std::vector<int> plot_width_px;  // each panel's plot area, left to right
  int plot_height_px = 0;
  double colourbox_left = 0, colourbox_bottom = 0, colourbox_width = 0, colourbox_height = 0;
};
// The figure's own size (HeatmapFigure::width_px, height_px) when it has
// one, shared among the panels in proportion to their natural widths; else
// each panel as wide as its columns need (a 512 B column at least
// kMinColumnPx). Throws Error(usage) naming the smallest size that fits
// when the asked size is smaller.
FigureLayout figure_layout(const HeatmapFigure& figure);

// The axes of panel `index` as drawn in `layout` (its width decides how
// many unit boundary lines fit).
PanelAxes panel_axes(const HeatmapFigure& figure, size_t index, const FigureLayout& layout);
// The finite cells only; a NaN cell (no samples) is left out.
std::vector<CellBox> cell_boxes(const HeatmapPanel& panel, const PanelAxes& axes);

// The colour bar's ticks over [colour_min, drawn top]: round numbers, the
// start marked with its number when it is not zero, and when cells lie
// outside the range the end ticks read "≥ top" / "≤ min".
std::vector<AxisTick> colour_ticks(const HeatmapFigure& figure);

// Two lines: the drive (and the document's file name when two panels show the
// same drive), then the verdict; a third with fold asked: what the panel was
// folded at, or why not.
std::string panel_title(const HeatmapFigure& figure, size_t index);

}  // namespace ssdprobe
