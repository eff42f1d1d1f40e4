// The human report printed on standard output.
#pragma once

#include <string>

#include "report/result.h"

namespace ssdprobe {

std::string render_text(const ResultDocument& document);

// `ssdprobe audit`: the identity lines and the audit only.
std::string render_audit_text(const ResultDocument& document);

}  // namespace ssdprobe
