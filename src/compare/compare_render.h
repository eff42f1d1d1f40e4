// The renderings of a fleet comparison (docs/compare.md): a text report,
// JSON, CSV (one row per group), Markdown, and a self-contained HTML report;
// and of the quirk table (text, JSON, CSV). Every string taken from a
// document goes through compare/text_escape.h (text formats) or report/utf8.h
// (JSON).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compare/fleet_comparison.h"
#include "compare/quirk_table.h"

namespace ssdprobe {

std::string render_text(const FleetComparison& comparison);
std::string render_json(const FleetComparison& comparison);
std::string render_csv(const FleetComparison& comparison);
std::string render_markdown(const FleetComparison& comparison);

// The HTML fragment that pictures a group (an inline <svg>, or a paragraph
// saying why there is none). Given as a function so tests can render the
// report without gnuplot; compare/group_heatmap.h has the real one.
// `colour_scale_note` says how the pictures' colours compare across groups
// (one shared scale, or each its own), shown under the page's header.
using GroupPicture = std::function<std::string(const FleetGroup&)>;
std::string render_html(const FleetComparison& comparison, const GroupPicture& picture,
                        const std::string& colour_scale_note);

std::string render_quirks_text(const std::vector<QuirkRow>& rows);
std::string render_quirks_json(const std::vector<QuirkRow>& rows);
std::string render_quirks_csv(const std::vector<QuirkRow>& rows);

// The quirk rule in one sentence, as the quirk outputs state it.
std::string quirk_rule_text();

}  // namespace ssdprobe
