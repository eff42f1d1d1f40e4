#include "report/unit_answer.h"

#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {

UnitAnswer unit_answer(UnitState state) {
  switch (state) {
    case UnitState::found: return UnitAnswer::found;
    case UnitState::absent: return UnitAnswer::ruled_out;
    case UnitState::undetermined: return UnitAnswer::not_determined;
    case UnitState::not_measured: return UnitAnswer::not_measured;
  }
  return UnitAnswer::not_determined;
}

UnitAnswer unit_answer(std::string_view saved_state) {
  if (saved_state == "found") return UnitAnswer::found;
  if (saved_state == "absent" || saved_state == "ruled_out") return UnitAnswer::ruled_out;
  if (saved_state == "not_measured") return UnitAnswer::not_measured;
  return UnitAnswer::not_determined;
}

const char* unit_answer_key(UnitAnswer answer) {
  switch (answer) {
    case UnitAnswer::found: return "found";
    case UnitAnswer::ruled_out: return "ruled_out";
    case UnitAnswer::not_determined: return "not_determined";
    case UnitAnswer::not_measured: return "not_measured";
  }
  return "not_determined";
}

const char* unit_answer_words(UnitAnswer answer) {
  switch (answer) {
    case UnitAnswer::found: return "found";
    case UnitAnswer::ruled_out: return "ruled out";
    case UnitAnswer::not_determined: return "not determined";
    case UnitAnswer::not_measured: return "not measured";
  }
  return "not determined";
}

std::string unit_answer_text(UnitAnswer answer, const std::optional<uint64_t>& bytes,
                             const std::optional<uint64_t>& searched_up_to) {
  switch (answer) {
    case UnitAnswer::found: return bytes ? format_size(*bytes) : "found";
    case UnitAnswer::ruled_out:
      return searched_up_to && *searched_up_to > 0 ? "none up to " + format_size(*searched_up_to) : "ruled out";
    case UnitAnswer::not_determined: return "not determined";
    case UnitAnswer::not_measured: return "not measured";
  }
  return "not determined";
}

std::string unit_phrase(const std::string& what, UnitAnswer answer, const std::optional<uint64_t>& bytes,
                        const std::optional<uint64_t>& searched_up_to, const std::string& to_determine) {
  const std::string hint = to_determine.empty() ? "" : fmt::format(" ({})", to_determine);
  switch (answer) {
    case UnitAnswer::found: return fmt::format("{} {}", what, unit_answer_text(answer, bytes, searched_up_to));
    case UnitAnswer::ruled_out:
      return searched_up_to && *searched_up_to > 0
                 ? fmt::format("no {} up to {}", what, format_size(*searched_up_to))
                 : fmt::format("no {} (ruled out)", what);
    case UnitAnswer::not_determined: return fmt::format("{} not determined{}", what, hint);
    case UnitAnswer::not_measured: return fmt::format("{} not measured{}", what, hint);
  }
  return what;
}

}  // namespace ssdprobe
