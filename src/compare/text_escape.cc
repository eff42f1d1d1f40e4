#include "compare/text_escape.h"

#include "core/output.h"

namespace ssdprobe {

std::string csv_field(std::string_view text) {
  const std::string valid = escape_invalid_utf8(text);
  const bool quote = valid.find_first_of(",\"\r\n") != std::string::npos ||
                     (!valid.empty() && (valid.front() == ' ' || valid.back() == ' '));
  if (!quote) return valid;
  std::string out = "\"";
  for (char c : valid) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string markdown_text(std::string_view text) {
  std::string out;
  for (char c : printable(text)) {
    if (std::string_view("\\`*_[]<>|#!~").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace ssdprobe
