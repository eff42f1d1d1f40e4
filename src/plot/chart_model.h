// What one `plot --picture` chart shows, as numbers: panels of series on
// axes, with reference lines and labels. Pure data, built from saved result
// documents (chart_build.h); plot/chart_render.h turns it into a gnuplot
// script, and tests read the numbers here without gnuplot.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ssdprobe {

enum class ChartKind { queue_depth, erase_block, misalignment, slc_cache };

enum class SeriesStyle { lines_points, points, big_points, error_bars };  // big: the few that matter (stalls)

struct ChartSeries {
  std::string name;  // the key's entry
  SeriesStyle style = SeriesStyle::lines_points;
  std::string colour;       // "#1f77b4"
  bool right_axis = false;  // drawn against y2
  std::vector<double> x, y;
  std::vector<double> y_low, y_high;  // error_bars only: the interval around y
};

// A reference line across the panel: the knee's depth, the plateau, the
// erase-block period, the stall threshold, ratio 1.
struct ChartLine {
  bool vertical = true;
  double at = 0.0;
  std::string label;  // written beside the line (may be empty: one label for a family of lines)
  std::string colour;
  bool right_axis = false;  // a horizontal line on y2
  bool dashed = true;
  // Named in the key, not beside the line: a label too long to sit between
  // a vertical line and the frame (the SLC cache probe's reach).
  bool in_key = false;
};

// Text at a data position (a category that has no number: "not determined").
struct ChartLabel {
  double x = 0.0, y = 0.0;
  std::string text;
};

struct ChartTick {
  double at = 0.0;
  std::string label;
};

struct ChartPanel {
  std::string title;  // the drive and what the panel's verdict is
  std::string x_label, y_label, y2_label;  // with units; y2 only when a series uses it
  bool x_log2 = false;                     // the x label says so
  std::optional<std::pair<double, double>> x_range;  // unset: gnuplot's autoscale
  std::vector<ChartTick> x_ticks;                    // empty: gnuplot's
  // Every y axis starts at zero (a scale that does not is marked in its
  // label); y_max empty: autoscale.
  std::optional<double> y_max;
  std::vector<ChartSeries> series;
  std::vector<ChartLine> lines;
  std::vector<ChartLabel> labels;
};

struct Chart {
  ChartKind kind = ChartKind::queue_depth;
  std::string title;    // one line over all panels: what is drawn and, for one document, its verdict
  std::string caption;  // how to read it (rules such as what a stall is); may be empty
  int columns = 1;      // panels per row
  std::vector<ChartPanel> panels;
};

}  // namespace ssdprobe
