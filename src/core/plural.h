// "1 round", "2 rounds": a count with its noun, in the report and evidence
// texts, so no "1 rounds" reaches a reader.
#pragma once

#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace ssdprobe {

// `plural_form` defaults to `singular` + "s" ("write" -> "writes").
inline std::string counted(uint64_t n, std::string_view singular, std::string_view plural_form = {}) {
  if (n == 1) return fmt::format("1 {}", singular);
  if (plural_form.empty()) return fmt::format("{} {}s", n, singular);
  return fmt::format("{} {}", n, plural_form);
}

}  // namespace ssdprobe
