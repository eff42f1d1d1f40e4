// A group's picture for the HTML report: the read grid of its representative
// run as a heatmap, drawn by the plot layer (gnuplot) and inlined as <svg>.
#pragma once

#include <string>

#include "compare/fleet_comparison.h"

namespace ssdprobe {

// The inline <svg> element, or a <p class="note"> saying why there is no
// picture (gnuplot not installed, the document unreadable since it was
// compared, gnuplot failed). Never throws Error: one missing picture must
// not lose the report.
std::string group_heatmap_html(const FleetGroup& group);

// gnuplot's SVG document made fit to sit inside HTML: everything before the
// <svg element (XML declaration, DOCTYPE, comments) removed, and any
// <script> element dropped (the report runs no scripts).
std::string inline_svg(const std::string& svg_document);

}  // namespace ssdprobe
