#include "plot/heatmap_scale.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/stats.h"

namespace ssdprobe {
namespace {

// Why not a percentile of all cells (p99): a read grid has 200-1800 cells,
// so a handful of outliers already reach its p99; and cells of different
// request sizes differ by several times for good reason (a 32 KiB read
// costs more than a 512 B one), so one percentile over all of them mixes
// what matters with what does not. Request size is what legitimately moves
// a cell a lot, so a cell is judged against the cells of its own row: far
// out is above Tukey's outer fence, upper quartile + 3 interquartile
// ranges, the range taken as at least half the row's median. That floor
// keeps a unit boundary's step on the scale whatever the quartiles say:
// crossing a boundary costs a small IO at most about one more page sense,
// twice its latency (a throughput row's rare aligned cells: about twice
// its typical one), and the fence is never below 2.5 times the median; a
// flat row's noise is never far out either. The cells that hide the
// picture are 5-50 times their row (a median of 4 samples at 1,788 µs
// beside 160-290 µs): those are left out, drawn in the top colour. Slow
// outliers for the latency scales; for throughput the fast ones (which
// land at the top), its slow outliers sitting at the bottom of a scale
// from zero, where they need no clipping.
constexpr double kFarOut = 3.0;
constexpr double kMinSpreadOfMedian = 0.5;
constexpr double kFarBelowRatio = 3.0;  // far below: under a third of the lower quartile
constexpr size_t kMinRowCells = 4;  // fewer: no quartiles to judge by, the row's largest counts

// The largest finite cell of the row that is not far out; NaN for a row
// without one. `base` is what the scale subtracted from the row (its fastest
// latency under --relative): the spread's floor is half the row's median
// latency, so under --relative too a step of up to 2.5x the row's latency
// (a boundary crossed) stays on the scale however few cells show it.
double row_top(const std::vector<double>& row, double base) {
  std::vector<double> v;
  for (double x : row) {
    if (std::isfinite(x)) v.push_back(x);
  }
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  if (v.size() < kMinRowCells) return v.back();
  const double q1 = sorted_quantile(v, 0.25), q3 = sorted_quantile(v, 0.75), median = sorted_quantile(v, 0.5);
  const double fence = q3 + kFarOut * std::max(q3 - q1, kMinSpreadOfMedian * std::fabs(median + base));
  return *std::prev(std::upper_bound(v.begin(), v.end(), fence));  // v.front() <= q3 <= fence
}

// The smallest finite cell of the row that is not far below it; NaN for a
// row without one. Far below: under a third of the row's lower quartile.
// Crossing a unit boundary costs at most about one more page sense, so an
// aligned cell is at least about half its straddling neighbours and stays
// on the scale even in a row where most cells straddle (the lower quartile
// is then a straddling one); a cell served from a cache at a tenth of its
// row is drawn in the bottom colour, marked, instead of stretching the
// scale down and squeezing every other cell into a few colours. Tukey's
// lower fence would not do: a row half aligned and half straddling has an
// interquartile range as wide as its step, and the fence falls below zero.
double row_bottom(const std::vector<double>& row) {
  std::vector<double> v;
  for (double x : row) {
    if (std::isfinite(x)) v.push_back(x);
  }
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  if (v.size() < kMinRowCells) return v.front();
  const double fence = sorted_quantile(v, 0.25) / kFarBelowRatio;
  return *std::lower_bound(v.begin(), v.end(), fence);  // fence <= q1 <= v.back()
}

}  // namespace

double robust_colour_bottom(const std::vector<HeatmapPanel>& panels) {
  double bottom = std::numeric_limits<double>::infinity();
  for (const HeatmapPanel& panel : panels) {
    for (const auto& row : panel.matrix.cells) {
      const double b = row_bottom(row);
      if (std::isfinite(b)) bottom = std::min(bottom, b);
    }
  }
  return std::isfinite(bottom) ? bottom : 0.0;
}

double robust_colour_top(const std::vector<HeatmapPanel>& panels) {
  double top = 0.0;
  for (const HeatmapPanel& panel : panels) {
    const HeatmapMatrix& m = panel.matrix;
    for (size_t r = 0; r < m.cells.size(); ++r) {
      const double t = row_top(m.cells[r], r < m.row_base.size() ? m.row_base[r] : 0.0);
      if (std::isfinite(t)) top = std::max(top, t);
    }
  }
  return top;
}

double drawn_colour_top(const HeatmapFigure& figure) {
  return figure.colour_max > figure.colour_min ? figure.colour_max : figure.colour_min + 1.0;
}

ClippedCells clipped_cells(const HeatmapFigure& figure) {
  ClippedCells clipped;
  const double top = drawn_colour_top(figure);
  for (const HeatmapPanel& panel : figure.panels) {
    for (const auto& row : panel.matrix.cells) {
      for (double v : row) {
        if (!std::isfinite(v)) continue;
        ++clipped.cells;
        if (v < figure.colour_min) ++clipped.below;
        if (v > top) ++clipped.above;
      }
    }
  }
  return clipped;
}

std::string colour_number(double v) { return fmt::format("{:.4g}", v); }

std::string colour_caption(const HeatmapFigure& figure) {
  std::string caption = figure.colour_label;
  if (figure.colour_min != 0.0) {
    caption += fmt::format(", scale from {} {}, not zero", colour_number(figure.colour_min), figure.colour_unit);
  }
  const ClippedCells clipped = clipped_cells(figure);
  std::string counts;
  if (clipped.above > 0) counts = fmt::format("≥ {}: {}", colour_number(drawn_colour_top(figure)), clipped.above);
  if (clipped.below > 0) {
    counts += fmt::format("{}≤ {}: {}", counts.empty() ? "" : ", ", colour_number(figure.colour_min), clipped.below);
  }
  if (counts.empty()) return caption;
  const char* where = clipped.above > 0 && clipped.below > 0 ? "the end colours"
                      : clipped.above > 0                     ? "the top colour"
                                                              : "the bottom colour";
  return caption + fmt::format("\n{} of {} cells drawn in {}", counts, clipped.cells, where);
}

}  // namespace ssdprobe
