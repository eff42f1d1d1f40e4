// The result document is JSON, and JSON text is UTF-8; what goes into it
// need not be: a file name, a sysfs model or serial is whatever bytes the
// kernel holds. Before the document is written every byte that is not part
// of well-formed UTF-8 becomes the four characters \xHH, in every string and
// object key: valid JSON, and still readable (and reversible) by a person.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/output.h"

namespace ssdprobe {

// `document` with escape_invalid_utf8 (core/output.h) applied to every string value and
// every object key, at any depth.
nlohmann::ordered_json with_valid_utf8(const nlohmann::ordered_json& document);

}  // namespace ssdprobe
