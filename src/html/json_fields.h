// Reading the result document's fields for the page: every reader is total
// (an absent key, a null or a value of another type gives "no value", never
// an exception), because a document from an older or newer writer must still
// render, with the gap said in words. Text comes back escaped for HTML.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace ssdprobe {

using Json = nlohmann::ordered_json;

// j[key] when j is an object that has it, else a null.
const Json& field(const Json& j, std::string_view key);

// The raw string at j[key]; empty for absent, null or not a string.
std::string raw_text(const Json& j, std::string_view key);
// The same, escaped for HTML (html_text); `absent` (already HTML) when empty.
std::string text(const Json& j, std::string_view key, std::string_view absent = "");

std::optional<uint64_t> bytes_of(const Json& j, std::string_view key);
std::optional<double> number_of(const Json& j, std::string_view key);
bool flag_of(const Json& j, std::string_view key);

// "16 KiB" for a byte count; `absent` (HTML) when it is null.
std::string size_text(const Json& j, std::string_view key, std::string_view absent = "-");
// A number with up to `decimals` decimals ("0.998"), `absent` when null.
std::string number_text(const Json& j, std::string_view key, int decimals, std::string_view absent = "-");

// "<li>TEXT</li>" for each string of the array j[key] (the document's notes
// lists), escaped; "" when there is none.
std::string list_items(const Json& j, std::string_view key);

}  // namespace ssdprobe
