#include "html/unit_words.h"

namespace ssdprobe {

std::string unit_label(std::string_view key) {
  std::string out(key);
  for (char& c : out) {
    if (c == '_') c = ' ';
  }
  return out;
}

std::string state_words(std::string_view state) {
  if (state == "absent" || state == "ruled_out") return "ruled out";
  if (state == "undetermined" || state == "not_determined") return "not determined";
  // A newer writer's value stays readable rather than being hidden.
  return unit_label(state);
}

}  // namespace ssdprobe
