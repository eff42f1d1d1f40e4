// misalignment: for each audited start with costs (audit.checks[].costs),
// the measured ratio of IOs issued from that start to IOs from an aligned
// start, with its 95 % interval, per op and request size. Ratio 1 (the
// aligned start) is the reference line; a cost the audit could not
// determine is a labelled gap, never a 1. Every panel has the same y scale.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "plot/chart_build.h"

namespace ssdprobe {
namespace {

std::string start_verdict(const SavedCostedStart& start) {
  double worst = 0.0;
  bool any_significant = false, any_determined = false;
  for (const SavedCost& c : start.costs) {
    if (!c.determined || !c.ratio) continue;
    any_determined = true;
    if (c.significant) {
      any_significant = true;
      worst = std::max(worst, *c.ratio);
    }
  }
  if (any_significant) return fmt::format("IO up to {:.2f}x slower than from an aligned start", worst);
  if (any_determined) return "no significant cost (every interval reaches 1)";
  return "cost not determined";
}

ChartPanel start_panel(const SavedResult& document, const SavedCostedStart& start) {
  ChartPanel panel;
  const std::string where = start.disk_offset ? fmt::format("disk byte {} ({})", *start.disk_offset,
                                                            format_size(*start.disk_offset))
                                              : fmt::format("{} B", start.value_bytes);
  panel.title = fmt::format("{}\n{} start at {}: {}", drive_name(document), printable_layer(start), where,
                            start_verdict(start));
  panel.x_label = "op and request size (IOs every 4 KiB from this start)";
  panel.y_label = "mean latency / aligned start's (ratio, from 0)";
  ChartSeries significant{"as-is start, significant (95 % interval above 1)", SeriesStyle::error_bars, "#d55e00",
                          false, {}, {}, {}, {}};
  ChartSeries not_significant{"as-is start, not significant (interval reaches 1)", SeriesStyle::error_bars,
                              "#0072b2", false, {}, {}, {}, {}};
  for (size_t i = 0; i < start.costs.size(); ++i) {
    const SavedCost& c = start.costs[i];
    const double x = static_cast<double>(i + 1);
    panel.x_ticks.push_back({x, fmt::format("{} {}", c.op, format_size(c.request_bytes))});
    if (!c.determined || !c.ratio) {
      panel.labels.push_back({x, 0.1, "not determined"});
      continue;
    }
    ChartSeries& into = c.significant ? significant : not_significant;
    into.x.push_back(x);
    into.y.push_back(*c.ratio);
    into.y_low.push_back(c.ratio_low.value_or(*c.ratio));
    into.y_high.push_back(c.ratio_high.value_or(*c.ratio));
  }
  panel.x_range = std::pair{0.5, static_cast<double>(start.costs.size()) + 0.5};
  for (ChartSeries* s : {&significant, &not_significant}) {
    if (!s->x.empty()) panel.series.push_back(*s);
  }
  panel.lines.push_back({false, 1.0, "aligned start (ratio 1)", "#009e73", false, true});
  return panel;
}

// One y scale for every panel, so that two starts' bars can be compared by
// eye: from 0 to a round number above the highest interval (and above 1,
// the reference line), a tenth of a decade at a time.
double shared_y_top(const std::vector<ChartPanel>& panels) {
  double highest = 1.0;
  for (const ChartPanel& panel : panels) {
    for (const ChartSeries& s : panel.series) {
      for (double v : s.y_high) highest = std::max(highest, v);
    }
  }
  const double step = std::pow(10.0, std::floor(std::log10(highest * 1.1))) / 10.0;
  return std::ceil(highest * 1.1 / step) * step;
}

}  // namespace

std::string printable_layer(const SavedCostedStart& start) {
  return start.layer.empty() ? start.field : start.layer;
}

std::optional<std::string> misalignment_missing(const SavedResult& document) {
  const SavedChartData& charts = document.charts;
  if (!charts.audit_present) return "has no audit (an older ssdprobe)";
  if (!charts.audit_available) {
    return fmt::format("its audit is not available ({}): no start was checked",
                       charts.audit_reason.empty() ? "no reason given" : charts.audit_reason);
  }
  if (charts.costed_starts.empty()) {
    return "its audit has no costs: no start was timed (an `audit` document, or the run timed no grid)";
  }
  return std::nullopt;
}

Chart misalignment_chart(const std::vector<SavedResult>& documents) {
  Chart chart;
  chart.kind = ChartKind::misalignment;
  for (const SavedResult& d : documents) {
    for (const SavedCostedStart& start : d.charts.costed_starts) chart.panels.push_back(start_panel(d, start));
  }
  const double top = shared_y_top(chart.panels);
  for (ChartPanel& panel : chart.panels) panel.y_max = top;
  chart.columns = chart.panels.size() > 1 ? 2 : 1;
  chart.title = "Misalignment: latency of IO from each audited start over that from an aligned start";
  chart.caption = "bars: 95 % bootstrap interval of the ratio; 1 = costs nothing (the grid's cells, "
                  "docs/result-json.md audit checks)";
  return chart;
}

}  // namespace ssdprobe
