// The answer a unit (read page, write unit, erase block) has, worded the
// same way in every output: the text report, the JSON verdict, compare's
// tables and the plot titles. Three answers come from a measurement, and
// they are different words on purpose:
//   found           the unit, with its confidence;
//   ruled out       no unit up to a stated size costs anything that matters;
//   not determined  the data neither show one nor rule one out (with what
//                   would tell: more --budget, a wider --region);
// and a fourth when no probe ran for it: not measured (e.g. without --write).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/verdicts.h"

namespace ssdprobe {

enum class UnitAnswer { found, ruled_out, not_determined, not_measured };

UnitAnswer unit_answer(UnitState state);
// A saved document's detected.*.state ("found", "absent", "undetermined",
// "not_measured"); a word this version does not know reads as not determined.
UnitAnswer unit_answer(std::string_view saved_state);

const char* unit_answer_key(UnitAnswer answer);    // found, ruled_out, not_determined, not_measured
const char* unit_answer_words(UnitAnswer answer);  // found, ruled out, not determined, not measured

// The answer in a few words: "16 KiB", "none up to 42.6 MiB", "ruled out",
// "not determined", "not measured". `searched_up_to` is the largest unit the
// probe could have seen (ruled out only).
std::string unit_answer_text(UnitAnswer answer, const std::optional<uint64_t>& bytes,
                             const std::optional<uint64_t>& searched_up_to);

// "read page 16 KiB", "no read page up to 128 KiB", "read page not determined
// (rerun with --budget 20)", "write unit not measured (needs --write)".
std::string unit_phrase(const std::string& what, UnitAnswer answer, const std::optional<uint64_t>& bytes,
                        const std::optional<uint64_t>& searched_up_to, const std::string& to_determine);

}  // namespace ssdprobe
