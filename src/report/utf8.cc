#include "report/utf8.h"

#include "core/output.h"

namespace ssdprobe {

std::string escape_invalid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = utf8_sequence_length(text.substr(i));
    if (length == 0) {
      append_escaped_byte(out, static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

nlohmann::ordered_json with_valid_utf8(const nlohmann::ordered_json& document) {
  using json = nlohmann::ordered_json;
  if (document.is_string()) return escape_invalid_utf8(document.get_ref<const std::string&>());
  if (document.is_array()) {
    json out = json::array();
    for (const auto& element : document) out.push_back(with_valid_utf8(element));
    return out;
  }
  if (document.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : document.items()) out[escape_invalid_utf8(key)] = with_valid_utf8(value);
    return out;
  }
  return document;
}

}  // namespace ssdprobe
