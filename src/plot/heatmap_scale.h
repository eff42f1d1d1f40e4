// The colour scale of a heatmap figure: where it runs by default, which
// cells fall outside it, and the words the colour bar says that with.
//
// Real drives have cells whose median is many times its neighbours' (a
// cell of 4 samples at 1,788 µs beside cells of 160-290 µs): a scale up to
// the largest cell draws everything else in its darkest colours. The
// default top leaves such cells out and draws them in the top colour,
// marked; whoever sets HeatmapFigure::colour_min/colour_max (--range, a
// comparison's shared scale) gets the same marks, since they are computed
// here from the figure as it is rendered, never kept from when it was built.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plot/heatmap_figure.h"

namespace ssdprobe {

// The default top: the largest cell of any panel that is not far out among
// the cells of its own request size (heatmap_scale.cc says why and how).
// 0 when no panel has a finite cell.
double robust_colour_top(const std::vector<HeatmapPanel>& panels);

// The default bottom of a latency scale: the smallest cell of any panel that
// is not far below the cells of its own request size. A latency heatmap
// starts there, not at zero, and says so on its colour bar: from zero, a
// 16 KiB read's 25 % boundary step on 240 µs sits in a scale that runs to
// the 128 KiB row's 390 µs and covers a seventh of the colours; from the
// fastest cell it covers a third. 0 when no panel has a finite cell.
double robust_colour_bottom(const std::vector<HeatmapPanel>& panels);

// The top gnuplot is given: colour_max, or a unit above colour_min when the
// figure has no range (no cells, or every cell the same).
double drawn_colour_top(const HeatmapFigure& figure);

struct ClippedCells {
  size_t below = 0, above = 0;  // finite cells under colour_min, over the drawn top
  size_t cells = 0;             // finite cells of all panels
};
ClippedCells clipped_cells(const HeatmapFigure& figure);

// A colour-bar number: "158.5", "1788", "0.25".
std::string colour_number(double v);

// The colour bar's label: what the colour is, where the scale starts when
// not at zero, and how many cells are drawn in an end colour ("≥ 158.5: 3
// of 1792 cells in the top colour").
std::string colour_caption(const HeatmapFigure& figure);

}  // namespace ssdprobe
