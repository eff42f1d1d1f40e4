// erase-block: the erase stream's timed pass (write_probe.stream.latency_us),
// each write's latency at its place in the write window, the stalls marked
// and the erase block detected.erase_block found drawn as lines one period
// apart through the stalls.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "plot/chart_build.h"

namespace ssdprobe {
namespace {

// A stall: a write that took more than kStallFactor times the median write
// of the same pass. Simple enough to say in the caption, and far from the
// noise of a sequential stream (its p99 is within a few % of the median).
constexpr double kStallFactor = 3.0;

double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
  return values[mid];
}

ChartPanel stream_panel(const SavedResult& document) {
  const SavedStream& stream = document.charts.stream;
  ChartPanel panel;
  panel.title = fmt::format("{}\n{}", drive_name(document), unit_verdict("erase block", document.erase_block));
  const uint64_t start = stream.first_offset();
  panel.x_label = fmt::format("offset in the write stream (MiB; the stream starts at byte {} = {})", start,
                              format_exact_size(start));
  panel.y_label = fmt::format("latency of each {} write (µs, from 0)", format_size(stream.chunk_bytes));
  const double threshold = kStallFactor * median_of(stream.latency_us);
  ChartSeries writes{"write", SeriesStyle::points, "#0072b2", false, {}, {}, {}, {}};
  ChartSeries stalls{fmt::format("stall (> {:.0f} µs)", threshold), SeriesStyle::big_points, "#d55e00", false,
                     {}, {}, {}, {}};
  for (size_t k = 0; k < stream.latency_us.size(); ++k) {
    const double at = static_cast<double>(k * stream.chunk_bytes) / kBytesPerMiB;
    ChartSeries& into = stream.latency_us[k] > threshold ? stalls : writes;
    into.x.push_back(at);
    into.y.push_back(stream.latency_us[k]);
  }
  const double end = static_cast<double>(stream.latency_us.size() * stream.chunk_bytes) / kBytesPerMiB;
  panel.x_range = std::pair{0.0, end};
  panel.series = {writes, stalls};
  panel.lines.push_back({false, threshold, fmt::format("stall threshold {:.0f} µs", threshold), "#d55e00", false, true});
  const SavedUnit& block = document.erase_block;
  if (block.state == "found" && block.bytes && *block.bytes > 0) {
    // Erase blocks sit at multiples of their size on the disk: the lines are
    // at those offsets, translated into the window.
    const uint64_t period = *block.bytes;
    const uint64_t first = (start + period - 1) / period * period - start;
    bool labelled = false;
    for (uint64_t at = first; static_cast<double>(at) / kBytesPerMiB <= end; at += period) {
      panel.lines.push_back({true, static_cast<double>(at) / kBytesPerMiB,
                             labelled ? "" : fmt::format("multiples of {} from disk byte 0", format_size(period)),
                             "#009e73", false, true});
      labelled = true;
    }
  }
  return panel;
}

}  // namespace

std::optional<std::string> erase_block_missing(const SavedResult& document) {
  const SavedStream& stream = document.charts.stream;
  if (!stream.present) return "has no write_probe.stream (run with --write)";
  if (stream.latency_us.empty() || stream.chunk_bytes == 0) {
    return "write_probe.stream has no timed writes (the stream did not run: no budget or window left for it)";
  }
  return std::nullopt;
}

Chart erase_block_chart(const std::vector<SavedResult>& documents) {
  Chart chart;
  chart.kind = ChartKind::erase_block;
  for (const SavedResult& d : documents) chart.panels.push_back(stream_panel(d));
  chart.title = documents.size() == 1
                    ? "Sequential write stream: " + unit_verdict("erase block", documents[0].erase_block)
                    : "Sequential write stream: write latency of the timed pass";
  chart.caption = fmt::format(
      "each point is one write, at its offset in the window; stall: a write over {:.0f}x the pass's median", kStallFactor);
  return chart;
}

}  // namespace ssdprobe
