// The words every human-readable rendering (text, Markdown, HTML) uses for
// tallies, agreements and spreads, so the three say the same thing.
#pragma once

#include <string>

#include "compare/fleet_comparison.h"

namespace ssdprobe {

// "512 B" when every document agrees; "512 B (10), 4 KiB (2)" otherwise;
// null as "not reported"; "-" when no document gave the field.
std::string tally_text(const SizeTally& tally);

// "16 KiB in 11/12 runs, 1 not determined, 3 not measured"; "not determined
// in 12/12 runs"; "not measured (12 runs)"; "no timed run".
std::string unit_text(const UnitAgreement& unit);

// The agreed unit in short, for summary tables: "16 KiB" when agreed,
// "16 KiB?" when the most frequent size misses the rule, "none" when no run
// found one, "-" when none measured it.
std::string unit_short(const UnitAgreement& unit);

// "57.1 us (p10-p90 56.8-57.5, 12 runs)", or "-" with no runs. `micro` is
// the microsecond sign to use ("us" for terminals, "µs" elsewhere).
std::string spread_text(const LatencySpread& spread, const char* micro = "us");

}  // namespace ssdprobe
