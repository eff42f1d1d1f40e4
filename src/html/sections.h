// The report page's sections, one function each (one file each), in the
// order the page shows them. Each takes the result document as parsed JSON
// (docs/result-json.md is the contract) and returns its section's body;
// every section says in words why a part of it is empty.
#pragma once

#include <vector>

#include "html/json_fields.h"
#include "html/report_pictures.h"
#include "report/saved_result.h"

namespace ssdprobe {

// verdict.summary word for word, the unit answers, the audit's findings,
// the first action, the cautions and how the run stopped.
std::string verdict_section(const Json& doc);
// The kernel's sysfs fields, the firmware's geometry (`saved` has it
// decoded), the detected units with state and confidence, the mismatches.
std::string reported_section(const Json& doc, const SavedResult& saved);
// The layout audit: checks, their measured costs and their fixes.
std::string audit_section(const Json& doc);
// The recommended layout: steps in order and the block size advice.
std::string recommendations_section(const Json& doc);
// The pictures, each with its caption, or the reason it is missing.
std::string pictures_section(const Json& doc, const std::vector<ReportPicture>& pictures);
// Each detected unit's evidence text, and the document's notes.
std::string evidence_section(const Json& doc);
// Host, command line, version, times, device, engine, phases and other IO.
std::string context_section(const Json& doc);

}  // namespace ssdprobe
