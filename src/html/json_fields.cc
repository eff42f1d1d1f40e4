#include "html/json_fields.h"

#include <fmt/format.h>

#include "compare/text_escape.h"
#include "core/units.h"

namespace ssdprobe {

const Json& field(const Json& j, std::string_view key) {
  static const Json kNull;
  if (!j.is_object()) return kNull;
  const auto found = j.find(std::string(key));
  return found == j.end() ? kNull : *found;
}

std::string raw_text(const Json& j, std::string_view key) {
  const Json& v = field(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::string text(const Json& j, std::string_view key, std::string_view absent) {
  const std::string raw = raw_text(j, key);
  return raw.empty() ? std::string(absent) : html_text(raw);
}

std::optional<uint64_t> bytes_of(const Json& j, std::string_view key) {
  const Json& v = field(j, key);
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  return std::nullopt;
}

std::optional<double> number_of(const Json& j, std::string_view key) {
  const Json& v = field(j, key);
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

bool flag_of(const Json& j, std::string_view key) {
  const Json& v = field(j, key);
  return v.is_boolean() && v.get<bool>();
}

std::string size_text(const Json& j, std::string_view key, std::string_view absent) {
  const auto bytes = bytes_of(j, key);
  return bytes ? format_size(*bytes) : std::string(absent);
}

std::string number_text(const Json& j, std::string_view key, int decimals, std::string_view absent) {
  const auto value = number_of(j, key);
  return value ? fmt::format("{:.{}f}", *value, decimals) : std::string(absent);
}

std::string list_items(const Json& j, std::string_view key) {
  std::string items;
  for (const Json& n : field(j, key)) {
    if (n.is_string()) items += "<li>" + html_text(n.get<std::string>()) + "</li>\n";
  }
  return items;
}

}  // namespace ssdprobe
