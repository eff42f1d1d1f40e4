// Where everything of a heatmap figure goes, decided in C++ rather than in
// gnuplot so it can be tested without gnuplot: each cell's box, the axes'
// ticks and labels, the unit boundary lines, the panels' places on the page.
//
// A grid with evenly spaced offsets (the read grid: every logical block
// across 128 KiB) is drawn on a true byte axis in KiB: the cell of offset O
// covers [O, O + step), so a line at a multiple of the unit is exactly the
// left edge of the aligned column. Uneven offsets (the write grid) become
// one labelled column each, and the axis label says it is not to scale.
// Rows are the request sizes, one per row, labelled in KiB.
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
};

struct CellBox {
  double x_low, x_high, y_low, y_high, value;
};

PanelAxes panel_axes(const HeatmapPanel& panel);
// The finite cells only; a NaN cell (no samples) is left out.
std::vector<CellBox> cell_boxes(const HeatmapPanel& panel, const PanelAxes& axes);

// Two lines: the drive (and the document's file name when two panels show the
// same drive), then the verdict.
std::string panel_title(const HeatmapFigure& figure, size_t index);

struct PanelBox {
  double left, right, top, bottom;  // screen fractions (0 = left/bottom)
};
struct FigureLayout {
  int width_px = 0, height_px = 0;
  std::vector<PanelBox> panels;
  double colourbox_left = 0, colourbox_bottom = 0, colourbox_width = 0, colourbox_height = 0;
};
FigureLayout figure_layout(const HeatmapFigure& figure);

}  // namespace ssdprobe
