#include "compare/group_heatmap.h"

#include <fmt/format.h>

#include "compare/text_escape.h"
#include "core/error.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_render.h"

namespace ssdprobe {

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

std::string group_heatmap_html(const FleetGroup& group) {
  try {
    std::vector<SavedResult> documents{read_saved_result(group.representative, GridDetail::full)};
    HeatmapFigure figure = heatmap_figure(documents, HeatmapOptions{});
    // The panel's own labels would repeat the model and file name, which are
    // untrusted text; the section heading (escaped) already names the drive.
    for (HeatmapPanel& panel : figure.panels) {
      panel.drive = "representative run";
      panel.source_file.clear();
    }
    const std::string svg = inline_svg(render_heatmap_svg(figure));
    if (svg.empty()) return "<p class=\"note\">gnuplot drew no SVG for this group's heatmap.</p>";
    return svg;
  } catch (const Error& e) {
    // Error(unsupported) says gnuplot is not installed and how to get it.
    return fmt::format("<p class=\"note heatmap-missing\">No heatmap: {}</p>", html_text(e.what()));
  }
}

}  // namespace ssdprobe
