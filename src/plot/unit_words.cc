#include "plot/unit_words.h"

#include <fmt/format.h>

#include "core/units.h"
#include "report/unit_answer.h"

namespace ssdprobe {

std::string found_unit_text(const SavedUnit& unit) {
  return fmt::format("{} (confidence {:.3g})", format_size(unit.bytes.value_or(0)), unit.confidence);
}

std::string unit_verdict(const std::string& unit_name, const SavedUnit& unit) {
  if (unit.state == "found" && unit.bytes) return unit_name + " " + found_unit_text(unit);
  // Ruled out and not determined carry no support of their own (the
  // confidence belongs to a found unit): the words and the reach say it.
  const UnitAnswer answer = unit.state.empty() ? UnitAnswer::not_measured : unit_answer(unit.state);
  return unit_phrase(unit_name, answer, unit.bytes, unit.searched_up_to_bytes, unit.to_determine);
}

}  // namespace ssdprobe
