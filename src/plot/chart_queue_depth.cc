// queue-depth: mean IOPS (left axis) and p99 latency (right axis) of each
// depth of the parallelism sweep, the knee and plateau that
// detected.parallelism (write_parallelism) found drawn on them.
#include <fmt/format.h>

#include <cmath>

#include "core/units.h"
#include "plot/chart_build.h"

namespace ssdprobe {
namespace {

// "knee at QD 48 (confidence 0.999)", "knee not determined", ...: the
// states' words as the text report uses them.
std::string value_words(const char* what, const SavedParallelValue& v, const std::string& shown) {
  if (v.state == "found" && v.value) return fmt::format("{} {} (confidence {:.3g})", what, shown, v.confidence);
  if (v.state == "not_measured" || v.state.empty()) return fmt::format("{} not measured", what);
  return fmt::format("{} not determined", what);
}

std::string iops_text(double iops) { return fmt::format("{:.0f} IOPS", iops); }

ChartPanel sweep_panel(const SavedResult& document, const SavedQueueSweep& sweep, const char* op) {
  ChartPanel panel;
  const std::string knee = value_words("knee", sweep.knee, fmt::format("at QD {:.0f}", sweep.knee.value.value_or(0)));
  const std::string plateau = value_words("plateau", sweep.plateau, iops_text(sweep.plateau.value.value_or(0)));
  panel.title = fmt::format("{}\nrandom {} {}s: {}, {}", drive_name(document), format_size(sweep.io_bytes), op,
                            knee, plateau);
  panel.x_label = "queue depth (IOs in flight, log2 scale)";
  panel.y_label = "mean IOPS (from 0)";
  panel.y2_label = "p99 latency (µs, from 0)";
  panel.x_log2 = true;
  ChartSeries iops{"mean IOPS", SeriesStyle::lines_points, "#0072b2", false, {}, {}, {}, {}};
  ChartSeries p99{"p99 latency", SeriesStyle::lines_points, "#d55e00", true, {}, {}, {}, {}};
  double deepest = 1;
  for (const SavedDepth& d : sweep.depths) {
    iops.x.push_back(d.queue_depth);
    iops.y.push_back(d.iops);
    p99.x.push_back(d.queue_depth);
    p99.y.push_back(d.p99_us);
    panel.x_ticks.push_back({static_cast<double>(d.queue_depth), fmt::format("{}", d.queue_depth)});
    deepest = std::max(deepest, static_cast<double>(d.queue_depth));
  }
  // Half an octave of room either side, so the end points are not on the frame.
  panel.x_range = std::pair{std::pow(2.0, -0.5), deepest * std::sqrt(2.0)};
  panel.series = {iops, p99};
  if (sweep.knee.state == "found" && sweep.knee.value) {
    panel.lines.push_back({true, *sweep.knee.value, fmt::format("knee QD {:.0f}", *sweep.knee.value), "#009e73",
                           false, true});
  }
  if (sweep.plateau.state == "found" && sweep.plateau.value) {
    std::string label = "plateau " + iops_text(*sweep.plateau.value);
    if (sweep.plateau.interval) {
      label += fmt::format(" (95 % {:.0f}-{:.0f})", sweep.plateau.interval->first, sweep.plateau.interval->second);
    }
    panel.lines.push_back({false, *sweep.plateau.value, label, "#0072b2", false, true});
  }
  return panel;
}

}  // namespace

std::optional<std::string> queue_depth_missing(const SavedResult& document) {
  const SavedQueueSweep& reads = document.charts.read_sweep;
  if (!reads.present) return "has no parallelism_probe (an `info` or `audit` document, or an older ssdprobe)";
  if (reads.depths.empty()) {
    return "parallelism_probe has no queue depths (the sweep did not run: psync engine, a region too small, or no "
           "budget left; detected.parallelism says why)";
  }
  return std::nullopt;
}

Chart queue_depth_chart(const std::vector<SavedResult>& documents) {
  Chart chart;
  chart.kind = ChartKind::queue_depth;
  bool any_writes = false;
  for (const SavedResult& d : documents) any_writes = any_writes || !d.charts.write_sweep.depths.empty();
  // One column: a document's writes under its reads, on the same depth axis,
  // so the knees line up; each panel has the picture's width, which the
  // depths' labels (96 and 128 sit close on a log axis) and the titles need.
  chart.columns = 1;
  for (const SavedResult& d : documents) {
    chart.panels.push_back(sweep_panel(d, d.charts.read_sweep, "read"));
    if (!any_writes) continue;
    if (!d.charts.write_sweep.depths.empty()) {
      chart.panels.push_back(sweep_panel(d, d.charts.write_sweep, "write"));
    } else {
      // Keep every document's reads-then-writes order: an empty panel that says why.
      ChartPanel none;
      none.title = fmt::format("{}\nwrites not measured ({})", drive_name(d),
                               d.write ? "the write sweep did not run: detected.write_parallelism says why"
                                       : "run with --write");
      none.x_label = "queue depth (IOs in flight, log2 scale)";
      none.y_label = "mean IOPS (from 0)";
      none.x_log2 = true;
      chart.panels.push_back(none);
    }
  }
  chart.title = "Queue depth: mean IOPS and p99 latency per depth of the parallelism sweep";
  chart.caption = "knee: the smallest depth reaching 90 % of the plateau (the highest mean IOPS of any depth)";
  return chart;
}

}  // namespace ssdprobe
