#include <fmt/format.h>

#include <array>

#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "plot/chart_build.h"
#include "plot/charts.h"

namespace ssdprobe {
namespace {

constexpr std::array<std::pair<ChartKind, const char*>, 4> kKindNames = {{
    {ChartKind::queue_depth, "queue-depth"},
    {ChartKind::erase_block, "erase-block"},
    {ChartKind::misalignment, "misalignment"},
    {ChartKind::slc_cache, "slc-cache"},
}};

}  // namespace

const char* chart_kind_name(ChartKind kind) {
  for (const auto& [k, name] : kKindNames) {
    if (k == kind) return name;
  }
  return "?";
}

std::optional<ChartKind> chart_kind_named(std::string_view name) {
  for (const auto& [k, known] : kKindNames) {
    if (name == known) return k;
  }
  return std::nullopt;
}

std::vector<ChartKind> all_chart_kinds() {
  std::vector<ChartKind> kinds;
  for (const auto& entry : kKindNames) kinds.push_back(entry.first);
  return kinds;
}

std::optional<std::string> chart_unavailable_reason(const SavedResult& document, ChartKind kind) {
  std::optional<std::string> why;
  if (!document.measured) {
    why = "is an `info` or `audit` document: it timed nothing to draw";
  } else {
    switch (kind) {
      case ChartKind::queue_depth: why = queue_depth_missing(document); break;
      case ChartKind::erase_block: why = erase_block_missing(document); break;
      case ChartKind::misalignment: why = misalignment_missing(document); break;
      case ChartKind::slc_cache: why = slc_cache_missing(document); break;
    }
  }
  if (!why) return std::nullopt;
  return fmt::format("{}: {}", printable(document.file), *why);
}

Chart build_chart(const std::vector<SavedResult>& documents, ChartKind kind) {
  if (documents.empty()) throw Error(ErrorCategory::usage, "nothing to plot: no documents");
  for (const SavedResult& document : documents) {
    if (auto why = chart_unavailable_reason(document, kind)) throw Error(ErrorCategory::target, *why);
  }
  switch (kind) {
    case ChartKind::queue_depth: return queue_depth_chart(documents);
    case ChartKind::erase_block: return erase_block_chart(documents);
    case ChartKind::misalignment: return misalignment_chart(documents);
    case ChartKind::slc_cache: return slc_cache_chart(documents);
  }
  throw Error(ErrorCategory::internal, "unknown chart kind");
}

std::string drive_name(const SavedResult& document) {
  return printable(document.model.empty() ? document.path : document.model);
}

void refuse_document(const SavedResult& document, const std::string& why) {
  throw Error(ErrorCategory::target, fmt::format("{}: {}", printable(document.file), why));
}

std::string series_colour(size_t i) {
  // Okabe-Ito: tells apart for the common colour blindnesses.
  static constexpr std::array kColours = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"};
  return kColours[i % kColours.size()];
}

std::string chart_data_text(const Chart& chart) {
  auto number = [](double v) { return fmt::format("{}", v); };
  std::string text = fmt::format("# {}\n", chart.title);
  if (!chart.caption.empty()) text += fmt::format("# {}\n", chart.caption);
  for (size_t p = 0; p < chart.panels.size(); ++p) {
    const ChartPanel& panel = chart.panels[p];
    std::string title = panel.title;  // one line: its line break becomes " / "
    for (size_t at = title.find('\n'); at != std::string::npos; at = title.find('\n', at)) title.replace(at, 1, " / ");
    text += fmt::format("\n# panel {}: {}\n# x: {}; y: {}{}\n", p + 1, title, panel.x_label, panel.y_label,
                        panel.y2_label.empty() ? "" : "; y2: " + panel.y2_label);
    for (const ChartSeries& s : panel.series) {
      text += fmt::format("# series {}{}\n", s.name, s.right_axis ? " (y2)" : "");
      for (size_t i = 0; i < s.x.size(); ++i) {
        text += number(s.x[i]) + " " + number(s.y[i]);
        if (s.style == SeriesStyle::error_bars) text += " " + number(s.y_low[i]) + " " + number(s.y_high[i]);
        text += "\n";
      }
    }
    for (const ChartLine& l : panel.lines) {
      text += fmt::format("# line {} {}{}\n", l.label.empty() ? "(unlabelled)" : l.label, l.vertical ? "at " : "y= ",
                          number(l.at));
    }
    for (const ChartLabel& l : panel.labels) {
      text += fmt::format("# label {} at {} {}\n", l.text, number(l.x), number(l.y));
    }
  }
  return text;
}

}  // namespace ssdprobe
