// The words every human-readable rendering (text, Markdown, HTML) uses for
// tallies, agreements and spreads, so the three say the same thing.
#pragma once

#include <string>
#include <vector>

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

// "57.1 us (p10-p90 56.8-57.5 us, 12 runs)", or "-" with no runs. `micro`
// is the microsecond sign to use ("us" for terminals, "µs" elsewhere).
std::string spread_text(const LatencySpread& spread, const char* micro = "us");

// How a group is named in tables and headings: its model, or for a drive
// without one "(no model, serial S)", "(no model, WWID W)", "(no model,
// HOST:PATH)". Raw document text: each renderer escapes it.
std::string group_name(const FleetGroup& group);

// One "reported / measured" pair of the summary's column: what the kernel
// reported (sysfs, the value tools such as mkfs read) beside what the runs
// measured for the same job.
struct ReportedMeasured {
  std::string reported;   // "min_io 512 B", "min_io 512 B in 3/4", "min_io not reported"
  std::string measured;   // "read page 8 KiB, write unit 16 KiB", "read page not determined"
  // An agreed measured unit the reported value does not cover: min_io below
  // it (or not reported); opt_io 0, not reported, or not a multiple of the
  // erase block.
  bool reported_too_small = false;
};

// minimum_io_size against the agreed read page and write unit (or, when
// neither is agreed, the read page's short form); and optimal_io_size
// against the erase block, only when one is agreed.
std::vector<ReportedMeasured> reported_vs_measured(const FleetGroup& group);

// The pairs as one line: "min_io 512 B / write unit 16 KiB; opt_io 0 B / erase block 4 MiB".
std::string reported_vs_measured_text(const FleetGroup& group);

}  // namespace ssdprobe
