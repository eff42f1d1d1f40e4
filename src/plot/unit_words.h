// A unit's answer as every picture's title words it (heatmaps and charts
// alike), in the words the text report uses: found, ruled out and not
// determined are different words, and only a found unit has a confidence.
#pragma once

#include <string>

#include "report/saved_result.h"

namespace ssdprobe {

// "16 KiB (confidence 0.998)": the confidence as the document rounds it, so
// 0.998 does not read as 1.00. For a found unit.
std::string found_unit_text(const SavedUnit& unit);

// "read page 16 KiB (confidence 0.998)", "no erase block up to 42.7 MiB",
// "write unit not determined (rerun with --budget 120)".
std::string unit_verdict(const std::string& unit_name, const SavedUnit& unit);

}  // namespace ssdprobe
