// The verdict: what a reader of the ticket needs first.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "html/page.h"
#include "html/sections.h"
#include "html/unit_words.h"

namespace ssdprobe {
namespace {

std::string units_table(const Json& verdict) {
  std::vector<std::string> rows;
  for (const Json& u : field(verdict, "units")) {
    rows.push_back(data_row({html_text(unit_label(raw_text(u, "unit"))), html_text(state_words(raw_text(u, "state"))),
                             text(u, "text"), number_text(u, "confidence", 3), size_text(u, "searched_up_to_bytes"),
                             text(u, "to_determine", "-")}));
  }
  return html_table("units", {"unit", "answer", "in words", "confidence", "searched up to", "to determine"}, rows,
                    "no unit answers in this document");
}

// Why there are no findings: the audit did not run, or found nothing wrong.
std::string no_findings_reason(const Json& doc) {
  const Json& audit = field(doc, "audit");
  if (audit.is_null()) return "no audit findings: this command does no layout audit";
  if (!flag_of(audit, "available")) return "no audit findings: no audit: " + text(audit, "reason", "reason not given");
  return "no audit findings: every layout check is OK";
}

std::string findings_table(const Json& doc, const Json& verdict) {
  std::vector<std::string> rows;
  for (const Json& f : field(verdict, "findings")) {
    rows.push_back(data_row({text(f, "severity"), text(f, "layer"), text(f, "field"), text(f, "headline"),
                             text(f, "cost", "not measured"), text(f, "fix", "none applies")}));
  }
  return html_table("findings", {"severity", "layer", "field", "finding", "measured cost", "first step of the fix"},
                    rows, no_findings_reason(doc));
}

std::string first_action(const Json& verdict) {
  const Json& action = field(verdict, "first_action");
  if (!action.is_object()) return empty_note("nothing to do first: no finding to fix and no unit left open");
  std::string out = fmt::format("<p id=\"first-action\">{}", text(action, "text"));
  const std::string command = raw_text(action, "command");
  if (!command.empty()) out += "<br>" + command_code(command);
  return out + "</p>\n";
}

std::string cautions(const Json& verdict) {
  std::string items;
  for (const Json& c : field(verdict, "cautions")) {
    if (c.is_string()) items += "<li>" + html_text(c.get<std::string>()) + "</li>\n";
  }
  if (items.empty()) return empty_note("no cautions: nothing seen that may have disturbed the answers");
  return "<ul class=\"cautions\">\n" + items + "</ul>\n";
}

std::string stopped(const Json& verdict) {
  const std::string how = raw_text(verdict, "stopped");
  if (how.empty()) return empty_note("not stopped: every phase had its turn");
  return fmt::format("<p class=\"stopped\">{}</p>\n", html_text(how));
}

}  // namespace

std::string verdict_section(const Json& doc) {
  const Json& verdict = field(doc, "verdict");
  std::string out = fmt::format("<p class=\"summary\" id=\"verdict-summary\">{}</p>\n",
                                text(verdict, "summary", "(the document has no verdict summary)"));
  std::string lines;
  for (const Json& line : field(verdict, "lines")) {
    if (line.is_string()) lines += (lines.empty() ? "" : "<br>") + html_text(line.get<std::string>());
  }
  if (!lines.empty()) out += "<p class=\"summary-lines\" id=\"verdict-lines\">" + lines + "</p>\n";
  out += "<h3>Units</h3>\n" + units_table(verdict);
  out += "<h3>Findings on the disk's layout</h3>\n" + findings_table(doc, verdict);
  out += "<h3>What to do first</h3>\n" + first_action(verdict);
  out += "<h3>Cautions</h3>\n" + cautions(verdict);
  out += "<h3>How the run ended</h3>\n" + stopped(verdict);
  return out;
}

}  // namespace ssdprobe
