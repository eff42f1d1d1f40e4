#include "compare/group_heatmap.h"

#include <algorithm>
#include <fmt/format.h>

#include "compare/svg_compact.h"
#include "compare/text_escape.h"
#include "core/error.h"
#include "plot/heatmap_render.h"

namespace ssdprobe {
namespace {

std::string missing(const std::string& why) {
  return fmt::format("<p class=\"note heatmap-missing\">No heatmap: {}</p>", html_text(why));
}

HeatmapFigure group_figure(const std::string& representative) {
  std::vector<SavedResult> documents{read_saved_result(representative, GridDetail::full)};
  HeatmapFigure figure = heatmap_figure(documents, HeatmapOptions{});
  // The panel's own labels would repeat the model and file name, which are
  // untrusted text; the section heading (escaped) already names the drive.
  for (HeatmapPanel& panel : figure.panels) {
    panel.drive = "representative run";
    panel.source_file.clear();
  }
  return figure;
}

}  // namespace

std::string inline_svg(const std::string& svg_document) {
  const size_t start = svg_document.find("<svg");
  if (start == std::string::npos) return "";
  std::string svg = svg_document.substr(start);
  for (size_t at; (at = svg.find("<script")) != std::string::npos;) {
    const size_t end = svg.find("</script>", at);
    svg.erase(at, end == std::string::npos ? std::string::npos : end + 9 - at);
  }
  return svg;
}

GroupHeatmaps::GroupHeatmaps(const FleetComparison& comparison, bool shared_scale) : shared_(shared_scale) {
  for (const FleetGroup& group : comparison.groups) {
    const std::string& file = group.representative;
    if (file.empty() || figures_.count(file) || failures_.count(file)) continue;
    try {
      figures_.emplace(file, group_figure(file));
    } catch (const Error& e) {
      failures_.emplace(file, e.what());
    }
  }
  bool first = true;
  for (const auto& [file, figure] : figures_) {
    shared_min_ = first ? figure.colour_min : std::min(shared_min_, figure.colour_min);
    shared_max_ = first ? figure.colour_max : std::max(shared_max_, figure.colour_max);
    first = false;
  }
}

std::string GroupHeatmaps::html(const FleetGroup& group) const {
  if (auto failure = failures_.find(group.representative); failure != failures_.end()) return missing(failure->second);
  auto found = figures_.find(group.representative);
  if (found == figures_.end()) return missing("no timed run in this group");
  HeatmapFigure figure = found->second;
  if (shared_) {
    figure.colour_min = shared_min_;
    figure.colour_max = shared_max_;
  }
  try {
    const std::string svg = inline_svg(render_heatmap_svg(figure));
    if (svg.empty()) return "<p class=\"note heatmap-missing\">gnuplot drew no SVG for this group's heatmap.</p>";
    return compact_svg_cells(svg);
  } catch (const Error& e) {
    // Error(unsupported) says gnuplot is not installed and how to get it.
    return missing(e.what());
  }
}

std::string GroupHeatmaps::scale_note() const {
  if (!shared_) {
    return "Colour scales: the heatmap of each group has its own (read its colour bar): the same colour can be a "
           "different latency in another group. --shared-scale puts every group on one scale.";
  }
  if (figures_.empty()) return "Colour scale: shared by every group (--shared-scale), but no group has a heatmap.";
  return fmt::format("Colour scale: one for the heatmaps of every group (--shared-scale), {:.4g} to {:.4g} µs: the "
                     "same colour is the same latency in every group.", shared_min_, shared_max_);
}

}  // namespace ssdprobe
