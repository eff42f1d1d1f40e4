// The verdict (report/verdict.h) as JSON (docs/result-json.md, "verdict")
// and as the text report's opening block, whose first line is exactly
// verdict.summary.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/verdict.h"

namespace ssdprobe {

nlohmann::ordered_json verdict_json(const Verdict& verdict);
void verdict_text(std::string& out, const Verdict& verdict, size_t width);

}  // namespace ssdprobe
