#include "report/verdict_render.h"

#include <fmt/format.h>

#include "core/plural.h"
#include "core/units.h"
#include "report/enum_names.h"
#include "report/json_values.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

json unit_json(const VerdictUnit& u) {
  return {{"unit", u.name},
          {"state", unit_answer_key(u.answer)},
          {"bytes", json_or_null(u.bytes)},
          {"count", json_or_null(u.count)},
          {"confidence", u.answer == UnitAnswer::found ? json(rounded(u.confidence)) : json(nullptr)},
          {"searched_up_to_bytes", u.answer == UnitAnswer::ruled_out ? json_or_null(u.searched_up_to_bytes)
                                                                     : json(nullptr)},
          {"text", u.text},
          {"to_determine", text_or_null(u.to_determine)},
          {"rerun", text_or_null(u.rerun)}};
}

json finding_json(const VerdictFinding& f) {
  return {{"severity", severity_name(f.severity)},
          {"field", f.field},
          {"layer", f.layer},
          {"message", f.message},
          {"headline", f.headline},
          {"cost", text_or_null(f.cost)},
          {"cost_ratio", f.cost_ratio > 0.0 ? json(rounded(f.cost_ratio)) : json(nullptr)},
          {"fix", text_or_null(f.fix)}};
}

}  // namespace

json verdict_json(const Verdict& v) {
  json units = json::array(), under = json::array(), findings = json::array();
  for (const auto& u : v.units) units.push_back(unit_json(u));
  for (const auto& u : v.under_reported) {
    under.push_back({{"field", u.field}, {"reported", u.reported}, {"detected", u.detected}});
  }
  for (const auto& f : v.findings) findings.push_back(finding_json(f));
  json first = nullptr;
  if (v.first_action) first = {{"text", v.first_action->text}, {"command", text_or_null(v.first_action->command)}};
  return {{"status", verdict_status_name(v.status)},
          {"summary", v.summary},
          {"lines", v.lines},
          {"units", units},
          {"under_reported", under},
          {"findings_by_severity",
           {{"error", v.findings_by_severity[static_cast<size_t>(Severity::error)]},
            {"warning", v.findings_by_severity[static_cast<size_t>(Severity::warning)]},
            {"info", v.findings_by_severity[static_cast<size_t>(Severity::info)]}}},
          {"findings", findings},
          {"first_action", first},
          {"defaults_right", v.defaults_right},
          {"stopped", text_or_null(v.stopped)},
          {"cautions", v.cautions}};
}

void verdict_text(std::string& out, const Verdict& v, size_t width) {
  out += v.summary + "\n";
  for (const auto& line : v.lines) out += "  " + line + "\n";
  out += "\n";
  for (const auto& u : v.units) {
    std::string line = u.text;
    if (u.answer == UnitAnswer::found) line += fmt::format(" (found, confidence {:.3f})", u.confidence);
    else if (u.answer == UnitAnswer::ruled_out) line += " (ruled out)";
    if (!u.to_determine.empty()) line += fmt::format(": {}", u.to_determine);
    out += wrapped("  - ", line, width, 4);
  }
  for (const auto& u : v.under_reported) {
    out += wrapped("  - ", fmt::format("the kernel under-reports {}: {} against {} measured", u.field,
                                       u.reported == 0 ? "0" : format_size(static_cast<uint64_t>(u.reported)),
                                       format_size(static_cast<uint64_t>(u.detected))), width, 4);
  }
  if (v.findings.size() > 1) {
    out += fmt::format("  - audit: {}, {}, {}; each is below, with its fix\n",
                       counted(v.findings_by_severity[static_cast<size_t>(Severity::error)], "error"),
                       counted(v.findings_by_severity[static_cast<size_t>(Severity::warning)], "warning"),
                       counted(v.findings_by_severity[static_cast<size_t>(Severity::info)], "note"));
  }
  for (const auto& caution : v.cautions) out += wrapped("  - caution: ", caution, width, 4);
  if (v.first_action) {
    // With nothing to change, the rerun is for a unit still open, not a must.
    const bool optional = v.status == VerdictStatus::ok && v.findings.empty();
    out += wrapped(optional ? "  - to measure more: " : "  - first: ", v.first_action->text, width, 4);
    if (!v.first_action->command.empty()) out += "    " + v.first_action->command + "\n";
  }
}

}  // namespace ssdprobe
