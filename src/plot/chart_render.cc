// Draws a Chart (plot/chart_model.h) with gnuplot through the shared runner:
// one multiplot, panels row by row, each with its series as inline data,
// its reference lines as arrows with labels, every y axis from zero.
#include <fmt/format.h>

#include <gnuplot-iostream.h>

#include <cmath>

#include "plot/charts.h"
#include "plot/gnuplot_run.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

// Sizes in pixels. A picture is never wider than kMaxWidthPx: the report page
// and a browser window 1280 px wide show it at its own size, so its 11 px
// text stays 11 px (scaled down to fit, two columns of 720 px had 7 px text).
constexpr int kOneColumnPx = 1000, kMaxWidthPx = 1200, kHeadingPx = 110, kRowPx = 430;
// A panel title's line may take the panel's width less the axis margins
// (about 80 px), at 8 px a character: the PNG's 10 pt font (about 13 px)
// is wider than the SVG's 11 px, whose digits take 7.
constexpr int kTitleMarginPx = 80, kCharPx = 8;

std::string num(double v) { return fmt::format("{:.9g}", v); }

int column_count(const Chart& chart) { return std::max(1, chart.columns); }

int panel_rows(const Chart& chart) {
  const int columns = column_count(chart);
  return (static_cast<int>(chart.panels.size()) + columns - 1) / columns;
}

int image_width_px(const Chart& chart) { return column_count(chart) == 1 ? kOneColumnPx : kMaxWidthPx; }

// Every line of `lines` cut into pieces of at most `columns` characters (a
// UTF-8 character is never split): a word too long to fold at a space, such
// as a /dev/disk/by-id path.
std::string cut_long_lines(std::string_view lines, size_t columns) {
  std::string out;
  size_t count = 0;
  for (const char c : lines) {
    const bool starts_character = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (starts_character && count == columns && c != '\n') {
      out += '\n';
      count = 0;
    }
    count = c == '\n' ? 0 : count + starts_character;
    out += c;
  }
  return out;
}

// The panel's title with each line folded at spaces to fit its panel, and a
// word longer than a line cut: gnuplot centres a title over the plot and
// cuts what passes the image's edge.
std::string fitted_title(const std::string& title, const Chart& chart) {
  const int panel_px = image_width_px(chart) / column_count(chart);
  const size_t columns = static_cast<size_t>(std::max(20, (panel_px - kTitleMarginPx) / kCharPx));
  std::string out;
  size_t begin = 0;
  while (begin <= title.size()) {
    const size_t end = std::min(title.find('\n', begin), title.size());
    std::string lines = wrapped("", std::string_view(title).substr(begin, end - begin), columns, 0);
    if (!lines.empty() && lines.back() == '\n') lines.pop_back();
    out += (begin == 0 ? "" : "\n") + cut_long_lines(lines, columns);
    begin = end + 1;
  }
  return out;
}

GnuplotImage image_for(const Chart& chart, ImageFormat format) {
  GnuplotImage image;
  image.format = format;
  image.width_px = image_width_px(chart);
  image.height_px = kHeadingPx + kRowPx * std::max(1, panel_rows(chart));
  image.title = chart.title;
  image.what = fmt::format("the {} picture", chart_kind_name(chart.kind));
  return image;
}

// A line is labelled beside itself when it stands alone (a knee, a cache
// drop); horizontal lines (which run under the curves' labels) and families
// of lines (period boundaries: the first labelled, the rest not) and lines
// marked in_key are named in the key instead.
bool named_in_key(const ChartPanel& panel, size_t i) {
  const ChartLine& line = panel.lines[i];
  if (line.label.empty()) return false;
  if (!line.vertical || line.in_key) return true;
  return i + 1 < panel.lines.size() && panel.lines[i + 1].label.empty() && panel.lines[i + 1].vertical;
}

std::string line_style(const ChartLine& line) {
  return fmt::format("lc rgb \"{}\" lw 1.5{}", line.colour, line.dashed ? " dt 2" : "");
}

void send_lines(Gnuplot& gp, const ChartPanel& panel) {
  int tag = 1;
  for (size_t i = 0; i < panel.lines.size(); ++i) {
    const ChartLine& line = panel.lines[i];
    const std::string style = "nohead front " + line_style(line);
    if (line.vertical) {
      gp << fmt::format("set arrow {} from {}, graph 0 to {}, graph 1 {}\n", tag, num(line.at), num(line.at), style);
    } else {
      const char* axis = line.right_axis ? "second" : "first";
      gp << fmt::format("set arrow {} from graph 0, {} {} to graph 1, {} {} {}\n", tag, axis, num(line.at), axis,
                        num(line.at), style);
    }
    if (line.vertical && !line.label.empty() && !named_in_key(panel, i)) {
      gp << fmt::format("set label {} {} at {}, graph 0.55 offset 0.5,0 left front tc rgb \"{}\" noenhanced\n", tag,
                        gnuplot_quoted(line.label), num(line.at), line.colour);
    }
    ++tag;
  }
  for (const ChartLabel& label : panel.labels) {
    gp << fmt::format("set label {} {} at {}, {} front rotate by 90 left tc rgb \"#555555\" noenhanced\n", tag++,
                      gnuplot_quoted(label.text), num(label.x), num(label.y));
  }
}

// Key entries for the lines named there: a function that is never drawn
// (NaN) in the line's style.
std::string line_key_entries(const ChartPanel& panel) {
  std::string entries;
  for (size_t i = 0; i < panel.lines.size(); ++i) {
    if (!named_in_key(panel, i)) continue;
    entries += fmt::format(", NaN with lines {} title {} noenhanced", line_style(panel.lines[i]),
                           gnuplot_quoted(panel.lines[i].label));
  }
  return entries;
}

void send_axes(Gnuplot& gp, const Chart& chart, const ChartPanel& panel) {
  gp << "set title " << gnuplot_quoted(fitted_title(panel.title, chart)) << " noenhanced\n";
  gp << "set xlabel " << gnuplot_quoted(panel.x_label) << " noenhanced\n";
  gp << "set ylabel " << gnuplot_quoted(panel.y_label) << " noenhanced\n";
  if (panel.x_log2) gp << "set logscale x 2\n";
  if (panel.x_range) {
    gp << "set xrange [" << num(panel.x_range->first) << ":" << num(panel.x_range->second) << "]\n";
  } else {
    gp << (panel.x_log2 ? "set xrange [1:256]\n" : "set xrange [*:*]\n");
  }
  if (!panel.x_ticks.empty()) {
    std::string tics;
    for (const ChartTick& t : panel.x_ticks) tics += (tics.empty() ? "" : ", ") + gnuplot_quoted(t.label) + " " + num(t.at);
    // Many category labels (the misalignment's) are turned to fit.
    gp << "set xtics (" << tics << ")" << (panel.x_ticks.size() > 6 && !panel.x_log2 ? " rotate by 30 right" : "")
       << "\n";
  }
  gp << "set yrange [0:" << (panel.y_max ? num(*panel.y_max) : "*") << "]\n";
  bool uses_y2 = false;
  for (const ChartSeries& s : panel.series) uses_y2 = uses_y2 || s.right_axis;
  if (uses_y2) {
    gp << "set ytics nomirror\nset y2tics\nset y2range [0:*]\n";
    gp << "set y2label " << gnuplot_quoted(panel.y2_label) << " noenhanced\n";
  }
}

void send_panel(Gnuplot& gp, const Chart& chart, const ChartPanel& panel) {
  gp << "unset arrow; unset label; unset logscale; unset y2tics; unset y2label; set xtics autofreq norotate; "
        "set ytics mirror\n";
  send_axes(gp, chart, panel);
  send_lines(gp, panel);
  std::string plot;
  for (const ChartSeries& s : panel.series) {
    if (s.x.empty()) continue;
    const std::string axes = s.right_axis ? " axes x1y2" : "";
    const std::string title = gnuplot_quoted(s.name) + " noenhanced";
    std::string what;
    switch (s.style) {
      case SeriesStyle::lines_points: what = "with linespoints pt 7 ps 0.6 lw 1.5"; break;
      case SeriesStyle::points: what = "with points pt 7 ps 0.4"; break;
      case SeriesStyle::big_points: what = "with points pt 7 ps 1.1"; break;
      case SeriesStyle::error_bars: what = "with yerrorbars pt 7 ps 1.2 lw 1.5"; break;
    }
    const char* columns = s.style == SeriesStyle::error_bars ? "1:2:3:4" : "1:2";
    plot += fmt::format("{}'-' using {}{} {} lc rgb \"{}\" title {}", plot.empty() ? "" : ", ", columns, axes, what,
                        s.colour, title);
  }
  if (plot.empty()) {
    // gnuplot refuses to autoscale nothing: an empty frame with its title.
    gp << "set yrange [0:1]\nplot NaN notitle\n";
    return;
  }
  gp << "plot " << plot << line_key_entries(panel) << "\n";
  for (const ChartSeries& s : panel.series) {
    if (s.x.empty()) continue;
    for (size_t i = 0; i < s.x.size(); ++i) {
      gp << num(s.x[i]) << " " << num(s.y[i]);
      if (s.style == SeriesStyle::error_bars) gp << " " << num(s.y_low[i]) << " " << num(s.y_high[i]);
      gp << "\n";
    }
    gp << "e\n";
  }
}

void send_chart(Gnuplot& gp, const Chart& chart) {
  // The key below the x label, a line's height apart: gnuplot puts its
  // first row right under the label, where the two touch.
  gp << "set grid lc rgb \"#dddddd\"\nset border lc rgb \"#444444\"\nset key below horizontal height 1 noenhanced\n";
  gp << "set mxtics 1\nset samples 2\n";
  const std::string heading = chart.caption.empty() ? chart.title : chart.title + "\n" + chart.caption;
  gp << fmt::format("set multiplot layout {},{} rowsfirst title {} font \",12\" noenhanced\n", panel_rows(chart),
                    column_count(chart), gnuplot_quoted(heading));
  for (const ChartPanel& panel : chart.panels) send_panel(gp, chart, panel);
}

std::string render(const Chart& chart, ImageFormat format) {
  return run_gnuplot(image_for(chart, format), [&](Gnuplot& gp) { send_chart(gp, chart); });
}

}  // namespace

std::string render_chart_svg(const Chart& chart) { return render(chart, ImageFormat::svg); }

std::string render_chart_svg(const std::vector<SavedResult>& documents, ChartKind kind) {
  return render_chart_svg(build_chart(documents, kind));
}

std::string render_chart_image(const Chart& chart, ImageFormat format) { return render(chart, format); }

}  // namespace ssdprobe
