// Makes gnuplot's SVG heatmaps small enough to inline several in one page.
// gnuplot writes every cell as its own <polygon> with a verbose rgb() fill
// and four absolute corner points (about 100 bytes a cell, 90 % of a
// heatmap's SVG). The cells are axis-aligned rectangles drawn in order, so
// the same picture can be written as <path>s: a run of consecutive cells of
// one colour becomes one path of short relative rectangles, and a cell that
// continues the previous one in the same row with the same colour is merged
// into it. Drawing order is kept (cells overlap by about a pixel to hide
// seams, so a later cell must still cover an earlier one), colours are kept
// exactly, coordinates keep gnuplot's two decimals.
#pragma once

#include <string>

namespace ssdprobe {

// The SVG with its cell polygons rewritten as above; anything else (axes,
// labels, the colour bar, polygons of another form) is left as it is.
std::string compact_svg_cells(const std::string& svg);

}  // namespace ssdprobe
