// slc-cache: the SLC cache probe's first fill (detected.slc_cache.curve):
// write speed over the bytes written since the idle, the cache's size
// marked where the speed dropped, and the medians before and after.
#include <algorithm>
#include <fmt/format.h>

#include "core/units.h"
#include "plot/chart_build.h"

namespace ssdprobe {
namespace {

std::string cache_verdict(const SavedCacheCurve& cache) {
  return unit_verdict("SLC cache", cache.unit);
}

ChartPanel fill_panel(const SavedResult& document) {
  const SavedCacheCurve& cache = document.charts.slc_cache;
  ChartPanel panel;
  panel.title = fmt::format("{}\n{}", drive_name(document), cache_verdict(cache));
  panel.x_label = "bytes written since the idle (MiB)";
  panel.y_label = "write speed (MiB/s, from 0)";
  ChartSeries speed{fmt::format("sequential {} writes, QD 1 (each point: one stretch of the fill)",
                                format_size(cache.io_bytes)),
                    SeriesStyle::lines_points, "#0072b2", false, {}, {}, {}, {}};
  for (const auto& [written, bytes_per_s] : cache.curve) {
    speed.x.push_back(static_cast<double>(written) / kBytesPerMiB);
    speed.y.push_back(bytes_per_s / kBytesPerMiB);
  }
  panel.series = {speed};
  panel.x_range = std::pair{0.0, speed.x.empty() ? 1.0 : speed.x.back()};
  if (cache.unit.state == "found" && cache.unit.bytes) {
    panel.lines.push_back({true, static_cast<double>(*cache.unit.bytes) / kBytesPerMiB,
                           fmt::format("cache {} (drop)", format_size(*cache.unit.bytes)), "#d55e00", false, true});
  }
  // Ruled out: the fill may run on past the largest cache it could show (a
  // drop too near its end cannot be told from noise); the line marks that
  // reach, the bound the verdict states, so the curve after it claims nothing.
  const std::optional<uint64_t>& reach_bytes = cache.unit.searched_up_to_bytes;
  if (cache.unit.state != "found" && reach_bytes && static_cast<double>(*reach_bytes) / kBytesPerMiB < panel.x_range->second) {
    const uint64_t reach = *reach_bytes;
    ChartLine line{true, static_cast<double>(reach) / kBytesPerMiB,
                   fmt::format("{}: the largest cache this fill could show", format_size(reach)), "#555555", false,
                   true};
    line.in_key = true;
    panel.lines.push_back(line);
  }
  if (cache.in_cache_bytes_per_s) {
    const bool dropped = cache.native_bytes_per_s.has_value();
    panel.lines.push_back({false, *cache.in_cache_bytes_per_s / kBytesPerMiB,
                           fmt::format("median {:.0f} MiB/s{}", *cache.in_cache_bytes_per_s / kBytesPerMiB,
                                       dropped ? " in the cache" : " (whole fill)"),
                           "#009e73", false, true});
  }
  if (cache.native_bytes_per_s) {
    panel.lines.push_back({false, *cache.native_bytes_per_s / kBytesPerMiB,
                           fmt::format("median {:.0f} MiB/s after the drop", *cache.native_bytes_per_s / kBytesPerMiB),
                           "#cc79a7", false, true});
  }
  return panel;
}

}  // namespace

std::optional<std::string> slc_cache_missing(const SavedResult& document) {
  const SavedCacheCurve& cache = document.charts.slc_cache;
  if (cache.unit.state.empty() || cache.unit.state == "not_measured") {
    return "has no SLC cache probe (run with --write, and without --cache-bytes 0)";
  }
  if (cache.curve.empty()) return "detected.slc_cache.curve is empty: the cache probe wrote nothing";
  return std::nullopt;
}

// The caption explains the marks the panels carry: the drop only where a
// panel found one (a fill that ended flat has none to explain).
std::string fill_caption(const std::vector<SavedResult>& documents) {
  const bool any_drop = std::any_of(documents.begin(), documents.end(), [](const SavedResult& d) {
    return d.charts.slc_cache.unit.state == "found";
  });
  if (any_drop) return "the fill starts after an idle; the drop is where the write speed fell and stayed down";
  return "the fill starts after an idle; its write speed never fell and stayed down: no drop is marked";
}

Chart slc_cache_chart(const std::vector<SavedResult>& documents) {
  Chart chart;
  chart.kind = ChartKind::slc_cache;
  for (const SavedResult& d : documents) chart.panels.push_back(fill_panel(d));
  chart.title = documents.size() == 1
                    ? "SLC cache probe's first fill: " + cache_verdict(documents[0].charts.slc_cache)
                    : "SLC cache probe's first fill: write speed over bytes written";
  chart.caption = fill_caption(documents);
  return chart;
}

}  // namespace ssdprobe
