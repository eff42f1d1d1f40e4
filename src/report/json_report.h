// The result document as JSON (schema "ssdprobe/1", docs/result-json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/result.h"

namespace ssdprobe {

constexpr const char* kResultSchema = "ssdprobe/1";

nlohmann::ordered_json to_json(const ResultDocument& document);

}  // namespace ssdprobe
