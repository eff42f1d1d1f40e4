// The human report printed on standard output.
#pragma once

#include <cstddef>
#include <string>

#include "report/result.h"

namespace ssdprobe {

// Long lines (the verdict, evidence, mismatches, notes) are folded at
// `width` columns (0: never); without a width, at 100 (report/text_wrap.h).
std::string render_text(const ResultDocument& document, size_t width);
std::string render_text(const ResultDocument& document);

// `ssdprobe audit`: the identity lines and the audit only.
std::string render_audit_text(const ResultDocument& document, size_t width);
std::string render_audit_text(const ResultDocument& document);

}  // namespace ssdprobe
