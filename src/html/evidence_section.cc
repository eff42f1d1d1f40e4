// Why each answer is what it is: every detected unit's evidence paragraph
// (the step sizes, z-scores, bootstrap support, what was ruled out), the
// fit's levels, and the document's notes.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "html/page.h"
#include "html/sections.h"
#include "html/unit_words.h"

namespace ssdprobe {
namespace {

std::string levels_table(const Json& unit) {
  std::vector<std::string> rows;
  for (const Json& l : field(unit, "levels")) {
    rows.push_back(data_row({size_text(l, "bytes"), text(l, "cost"), number_text(l, "step_us", 3) + " µs",
                             number_text(l, "stderr_us", 3) + " µs", number_text(l, "z", 1)}));
  }
  if (rows.empty()) return "";
  return html_table("levels", {"level", "cost", "step", "standard error", "z"}, rows, "");
}

std::string unit_evidence(const std::string& name, const Json& unit) {
  std::string out = fmt::format("<h3>{}: {}</h3>\n<p class=\"evidence\">{}</p>\n", html_text(name),
                                html_text(state_words(raw_text(unit, "state"))),
                                text(unit, "evidence", "(no evidence text)"));
  const std::string to_determine = raw_text(unit, "to_determine");
  if (!to_determine.empty()) out += fmt::format("<p>To determine: {}</p>\n", html_text(to_determine));
  return out + levels_table(unit);
}

std::string detected_evidence(const Json& detected) {
  std::string out;
  for (const char* key : kDetectedUnits) {
    const Json& unit = field(detected, key);
    if (unit.is_object()) out += unit_evidence(unit_label(key), unit);
  }
  for (const char* probe : {"parallelism", "write_parallelism"}) {
    const Json& values = field(detected, probe);
    if (!values.is_object()) continue;
    for (const auto& [key, v] : values.items()) out += unit_evidence(unit_label(probe) + ": " + unit_label(key), v);
  }
  return out;
}

std::string notes(const Json& doc) {
  const std::string items = list_items(doc, "notes");
  if (items.empty()) return empty_note("no notes: the run adapted nothing and met nothing worth a note");
  return "<ul class=\"notes\">\n" + items + "</ul>\n";
}

}  // namespace

std::string evidence_section(const Json& doc) {
  const std::string units = detected_evidence(field(doc, "detected"));
  std::string out = units.empty() ? empty_note("no detected units in this document") : units;
  return out + "<h3>Notes</h3>\n" + notes(doc);
}

}  // namespace ssdprobe
