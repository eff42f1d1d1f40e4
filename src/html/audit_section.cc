// The layout already on the disk, judged against the units: each check, what
// a misaligned start costs (measured, with its 95 % interval) and the fix.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "html/page.h"
#include "html/sections.h"

namespace ssdprobe {
namespace {

std::string misses_text(const Json& check) {
  std::string out;
  for (const Json& m : field(check, "misses")) {
    out += fmt::format("{}{} (by {})", out.empty() ? "" : ", ", text(m, "unit"), size_text(m, "remainder_bytes"));
  }
  return out.empty() ? "-" : out;
}

std::string checks_table(const Json& audit) {
  std::vector<std::string> rows;
  for (const Json& c : field(audit, "checks")) {
    const std::string verdict = flag_of(c, "ok") ? "OK" : text(c, "severity");
    rows.push_back(data_row({text(c, "layer"), text(c, "field"), size_text(c, "value_bytes"), verdict,
                             misses_text(c), size_text(c, "suggested_bytes"), text(c, "message")}));
  }
  return html_table("checks", {"layer", "field", "value", "verdict", "misses", "suggested", "message"}, rows,
                    "no checks: the audit found no layer to check");
}

std::string ratio_text(const Json& cost) {
  if (!flag_of(cost, "determined")) return "not determined";
  return fmt::format("{}x (95 % {}-{}){}", number_text(cost, "ratio", 2), number_text(cost, "ratio_low", 2),
                     number_text(cost, "ratio_high", 2), flag_of(cost, "significant") ? "" : ", not significant");
}

std::string costs_table(const Json& check) {
  std::vector<std::string> rows;
  for (const Json& c : field(check, "costs")) {
    rows.push_back(data_row({text(c, "op"), text(c, "grid"), size_text(c, "request_bytes"), ratio_text(c),
                             text(c, "evidence")}));
  }
  return html_table("costs", {"op", "grid", "request", "cost over an aligned start", "evidence"}, rows,
                    "no measured cost: only starts are priced, and only after timing");
}

std::string fix_steps(const Json& check) {
  std::string items;
  for (const Json& step : field(check, "fix")) {
    std::string item = "<li>";
    if (flag_of(step, "destroys_data")) item += "<span class=\"danger\">destroys data</span> ";
    if (flag_of(step, "moves_data")) item += "<span class=\"warning\">moves data: do not interrupt</span> ";
    const std::string command = raw_text(step, "command");
    item += command.empty() ? "<em>(a step in words)</em>" : command_code(command);
    item += fmt::format("<br>{} <span class=\"note\">({})</span></li>\n", text(step, "purpose"), text(step, "cost"));
    items += item;
  }
  if (items.empty()) return empty_note("no fix: none applies");
  return "<ol class=\"steps\">\n" + items + "</ol>\n";
}

// One block per check that is not OK: its costs and its fix.
std::string findings_detail(const Json& audit) {
  std::string out;
  for (const Json& c : field(audit, "checks")) {
    if (flag_of(c, "ok")) continue;
    out += fmt::format("<h4>{}: {}</h4>\n<p>{}</p>\n", text(c, "layer"), text(c, "field"), text(c, "message"));
    out += costs_table(c) + fix_steps(c);
  }
  return out;
}

std::string at_table(const Json& audit) {
  std::vector<std::string> rows;
  for (const Json& c : field(audit, "at")) {
    std::string costs;
    for (const Json& cost : field(c, "costs")) {
      costs += fmt::format("{}{} {}: {}", costs.empty() ? "" : "<br>", text(cost, "op"),
                           size_text(cost, "request_bytes"), ratio_text(cost));
    }
    rows.push_back(data_row({size_text(c, "value_bytes"), misses_text(c), costs.empty() ? "-" : costs,
                             text(c, "message")}));
  }
  return html_table("at", {"start (--at)", "misses", "cost over an aligned start", "message"}, rows,
                    "no --at starts asked about");
}

std::string audit_notes_html(const Json& audit) {
  const std::string items = list_items(audit, "notes");
  return items.empty() ? "" : "<h3>Audit notes</h3>\n<ul>\n" + items + "</ul>\n";
}

}  // namespace

std::string audit_section(const Json& doc) {
  const Json& audit = field(doc, "audit");
  if (audit.is_null()) return empty_note("no audit: this command does no layout audit");
  if (!flag_of(audit, "available")) {
    return empty_note("no audit: " + text(audit, "reason", "the layout could not be read")) + at_table(audit);
  }
  const Json& units = field(audit, "units");
  std::string out = fmt::format("<p>Disk {} ({}), checked against: read page {}, write unit {}, erase block {}; every "
                                "layer should start on a multiple of {}. {}</p>\n",
                                text(audit, "disk"), size_text(audit, "disk_size_bytes"),
                                size_text(units, "read_page", "not determined"),
                                size_text(units, "write_unit", "not determined"),
                                size_text(units, "erase_block", "not determined"), size_text(units, "alignment"),
                                flag_of(audit, "all_ok") ? "Every check is OK: nothing to change."
                                                         : "Some checks are not OK: see below.");
  out += "<h3>Checks</h3>\n" + checks_table(audit);
  const std::string details = findings_detail(audit);
  out += "<h3>Costs and fixes</h3>\n" + (details.empty() ? empty_note("nothing to fix: every check is OK") : details);
  out += "<h3>Starts asked about (--at)</h3>\n" + at_table(audit);
  return out + audit_notes_html(audit);
}

}  // namespace ssdprobe
