// The audit section of the result document (layout/audit.h), as JSON and as
// the text report's "Audit" block. docs/result-json.md, section "audit",
// defines the JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/result.h"

namespace ssdprobe {

nlohmann::ordered_json audit_json(const std::optional<AuditSection>& audit);
void audit_text(std::string& out, const std::optional<AuditSection>& audit);
// `audit FILE|DIR`: audit.files (file_audit_json.cc) and the per-file rows
// of the text (file_audit_text.cc).
nlohmann::ordered_json file_extents_json(const FileExtentsAudit& files);
void file_extents_text(std::string& out, const FileExtentsAudit& files);

}  // namespace ssdprobe
