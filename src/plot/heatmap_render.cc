#include "plot/heatmap_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <gnuplot-iostream.h>
#include <tuple>

#include "core/error.h"
#include "core/output.h"
#include "heatmap_style.h"  // generated from plots/heatmap_style.gp
#include "plot/heatmap_layout.h"
#include "plot/heatmap_scale.h"

namespace ssdprobe {
namespace {

std::string axis_value(double v) { return fmt::format("{:.6g}", v); }

void send_panel(Gnuplot& gp, const HeatmapFigure& figure, size_t index, const FigureLayout& layout) {
  const HeatmapPanel& panel = figure.panels[index];
  const PanelAxes axes = panel_axes(figure, index, layout);
  const PanelBox& box = layout.panels[index];
  gp << fmt::format("set lmargin at screen {0}; set rmargin at screen {1}; set tmargin at screen {2}; "
                    "set bmargin at screen {3}\n",
                    box.left, box.right, box.top, box.bottom);
  gp << "unset arrow; unset object; unset label\n";
  // Cells without samples are not drawn: the grey behind them shows through.
  gp << "set object 1 rectangle from graph 0,0 to graph 1,1 behind fc rgb \"#c8c8c8\" fs solid 1.0 noborder\n";
  gp << "set title " << gnuplot_quoted(panel_title(figure, index)) << " noenhanced\n";
  gp << "set xrange [" << axis_value(axes.x_low) << ":" << axis_value(axes.x_high) << "]\n";
  gp << "set yrange [" << axis_value(axes.y_low) << ":" << axis_value(axes.y_high) << "]\n";
  std::string xtics, ytics;
  for (const AxisTick& t : axes.x_ticks) xtics += (xtics.empty() ? "" : ", ") + gnuplot_quoted(t.label) + " " + axis_value(t.at);
  for (const AxisTick& t : axes.y_ticks) ytics += (ytics.empty() ? "" : ", ") + gnuplot_quoted(t.label) + " " + axis_value(t.at);
  gp << "set xtics (" << xtics << ")" << (axes.rotate_x_labels ? " rotate by 60 right" : " norotate") << "\n";
  gp << "set ytics (" << ytics << ")\n";
  gp << "set xlabel " << gnuplot_quoted(axes.x_label) << " noenhanced\n";
  gp << "set ylabel " << gnuplot_quoted(axes.y_label) << " noenhanced\n";
  for (double x : axes.boundaries) {
    gp << "set arrow from " << axis_value(x) << ", graph 0 to " << axis_value(x)
       << ", graph 1 nohead front lc rgb \"#00e5ff\" lw 1.5 dt (6,4)\n";
  }
  if (index + 1 == figure.panels.size()) {
    gp << fmt::format("set colorbox user origin screen {}, screen {} size screen {}, screen {}\n", layout.colourbox_left,
                      layout.colourbox_bottom, layout.colourbox_width, layout.colourbox_height);
    std::string cbtics;
    for (const AxisTick& t : colour_ticks(figure)) {
      cbtics += (cbtics.empty() ? "" : ", ") + gnuplot_quoted(t.label) + " " + axis_value(t.at);
    }
    gp << "set cbtics (" << cbtics << ")\n";
    gp << "set cblabel " << gnuplot_quoted(colour_caption(figure)) << " offset 1.5,0 noenhanced\n";
  } else {
    gp << "unset colorbox\n";
  }
  // Antialiased neighbouring boxes leave hairline seams that read as grid
  // lines: each box reaches about a pixel into the next one, which is drawn
  // later (left to right, bottom to top) and covers it, so every visible edge
  // stays where it belongs; the axes clip the last row and column.
  const double x_overlap = (axes.x_high - axes.x_low) / ((box.right - box.left) * layout.width_px);
  const double y_overlap = (axes.y_high - axes.y_low) / ((box.top - box.bottom) * layout.height_px);
  // Cells outside the colour range are drawn in its end colours, which the
  // colour bar marks (≥, ≤): sent clamped, so no gnuplot version draws them
  // any other way.
  const double low = figure.colour_min, high = drawn_colour_top(figure);
  std::vector<std::tuple<double, double, double, double, double, double, double>> boxes;
  for (const CellBox& c : cell_boxes(panel, axes)) {
    boxes.emplace_back((c.x_low + c.x_high) / 2, (c.y_low + c.y_high) / 2, c.x_low, c.x_high + x_overlap, c.y_low,
                       c.y_high + y_overlap, std::clamp(c.value, low, high));
  }
  if (boxes.empty()) {
    // Nothing sampled at all: an empty frame (gnuplot refuses a plot with no points).
    gp << "plot NaN notitle\n";
    return;
  }
  gp << "plot '-' using 1:2:3:4:5:6:7 with boxxyerror fs solid 1.0 noborder lc palette notitle\n";
  gp.send1d(boxes);
}

// Runs gnuplot on the figure and returns the image's bytes.
std::string render(const HeatmapFigure& figure, ImageFormat format) {
  if (figure.panels.empty()) throw Error(ErrorCategory::usage, "nothing to plot: no documents");
  const FigureLayout layout = figure_layout(figure);
  const GnuplotImage image{format, layout.width_px, layout.height_px, figure.title, "the heatmap"};
  return run_gnuplot(image, [&](Gnuplot& gp) {
    gp << kHeatmapStyle << "\n";  // plots/heatmap_style.gp: palette, tics, border
    gp << "set cbrange [" << axis_value(figure.colour_min) << ":" << axis_value(drawn_colour_top(figure)) << "]\n";
    gp << "set multiplot title " << gnuplot_quoted(figure.title) << " font \",13\" noenhanced\n";
    for (size_t i = 0; i < figure.panels.size(); ++i) send_panel(gp, figure, i, layout);
  });
}

std::string cell_text(double v) { return std::isfinite(v) ? fmt::format("{}", v) : "NaN"; }

}  // namespace

std::string render_heatmap_svg(const HeatmapFigure& figure) { return render(figure, ImageFormat::svg); }

std::string render_heatmap_image(const HeatmapFigure& figure, ImageFormat format) { return render(figure, format); }

std::string heatmap_data_text(const HeatmapFigure& figure) {
  const ClippedCells clipped = clipped_cells(figure);
  std::string text = fmt::format("# {}\n# cell values: {}; rows: request size (bytes), columns: offset (bytes)\n",
                                 figure.title, figure.colour_label);
  // The range the colours were drawn over, for a check of what the picture
  // shows: a cell's colour is its place in [min, max], cells outside drawn
  // in the end colour.
  text += fmt::format("# colour_range {} {}\n# cells outside it, drawn in the end colours: {} above, {} below, of {}\n",
                      figure.colour_min, drawn_colour_top(figure), clipped.above, clipped.below, clipped.cells);
  for (size_t i = 0; i < figure.panels.size(); ++i) {
    const HeatmapPanel& panel = figure.panels[i];
    const HeatmapMatrix& m = panel.matrix;
    text += fmt::format("\n# panel {}: {}, {} ({})\n", i + 1, printable(panel.drive), panel.verdict,
                        printable(panel.source_file));
    if (!panel.fold_note.empty()) text += fmt::format("# {}\n", panel.fold_note);
    if (panel.folded_at) text += fmt::format("# folded_at {}: columns are offsets modulo it\n", *panel.folded_at);
    text += "size";
    for (uint64_t offset : m.offsets) text += fmt::format(" {}", offset);
    text += "\n";
    for (size_t row = 0; row < m.sizes.size(); ++row) {
      text += fmt::format("{}", m.sizes[row]);
      for (double v : m.cells[row]) text += " " + cell_text(v);
      text += "\n";
    }
  }
  return text;
}

}  // namespace ssdprobe
