// The result document as JSON (schema "ssdprobe/1", docs/result-json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "report/result.h"

namespace ssdprobe {

constexpr const char* kResultSchema = "ssdprobe/1";

nlohmann::ordered_json to_json(const ResultDocument& document);

// Writes `document` to `path` ("-" = standard output). A file is written to a
// temporary name beside it and renamed into place, so a reader never sees a
// half-written document. Throws Error(io | permission) naming the path.
void write_json(const nlohmann::ordered_json& document, const std::string& path);

// Writes any text output (`compare --csv/--markdown/--html`...) the same way:
// "-" = standard output, else FILE.partial renamed into place. `option`
// names the option in error messages.
void write_text_output(std::string_view text, const std::string& path, const std::string& option);

// Checks that a target for --json can be created before any work starts
// (directory exists and is writable), so a long run does not end in an error.
void check_json_destination(const std::string& path);

}  // namespace ssdprobe
