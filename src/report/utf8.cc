#include "report/utf8.h"

namespace ssdprobe {

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
