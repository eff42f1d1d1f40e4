// Draws a HeatmapFigure with gnuplot (plot/gnuplot_run.h): to an image
// file for `ssdprobe plot`, or to SVG text for a caller that inlines it (the
// comparison's HTML report). Both go through the same gnuplot script, so the
// pictures are the same.
#pragma once

#include <string>

#include "plot/gnuplot_run.h"  // ImageFormat, image_format_for
#include "plot/heatmap_figure.h"

namespace ssdprobe {

// The whole SVG document of the figure (starts with "<?xml" or "<svg").
// Throws Error(unsupported) when gnuplot is not on PATH or fails to draw
// (the message names it and quotes gnuplot's first error line).
std::string render_heatmap_svg(const HeatmapFigure& figure);

// The image's bytes in `format`, for a file (the command writes it through
// the output door, core/output_file.h). Throws like render_heatmap_svg.
std::string render_heatmap_image(const HeatmapFigure& figure, ImageFormat format);

// The matrices gnuplot read, as text: for each panel a "# title" line, a
// header "size offset0 offset1 ...", then one line per request size with the
// cell values (NaN where the grid has no samples). Written next to the image
// (OUT.dat) so the numbers behind the colours can be checked.
std::string heatmap_data_text(const HeatmapFigure& figure);

}  // namespace ssdprobe
