// The words the page uses for units and their answers, the same as the text
// report's and compare's: "found", "ruled out", "not determined", "not
// measured" are four different answers and are never merged.
#pragma once

#include <string>
#include <string_view>

namespace ssdprobe {

// The keys of detected's units (not the parallelism values), in the
// document's order: what the measured table and the evidence list.
inline constexpr const char* kDetectedUnits[] = {"read_page", "write_unit", "write_stripe", "erase_block",
                                                 "slc_cache"};

// "read_page" -> "read page", "queue_depth_knee" -> "queue depth knee".
std::string unit_label(std::string_view key);

// A state as the document writes it, in words: found; absent / ruled_out ->
// "ruled out"; undetermined / not_determined -> "not determined";
// not_measured -> "not measured"; an unknown value is shown as written.
std::string state_words(std::string_view state);

}  // namespace ssdprobe
