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
// "16 KiB?" when the most frequent size misses the rule; when no run found
// one, "none up to 128 KiB" when every run that measured it ruled it out (as
// far as all of them could see; "ruled out" when one did not say) and "not
// determined" otherwise; "-" when none measured it.
std::string unit_short(const UnitAgreement& unit);

// unit_short named, as a sentence part: "read page 16 KiB", "read page 16
// KiB?", "no read page up to 128 KiB", "read page not determined".
std::string unit_phrase_short(const std::string& what, const UnitAgreement& unit);

// The most frequent value of a tally, marked when the documents disagree:
// "1 MiB" when all agree, "1 MiB in 2/3" otherwise (its count over all);
// `null_word` for null; "-" when the tally is empty.
std::string most_frequent_text(const SizeTally& tally, const char* null_word);

// The recommended partition alignment over the group's timed runs, for
// summary tables: most_frequent_text ("1 MiB", "1 MiB in 2/3").
std::string alignment_short(const FleetGroup& group);

// The summary tables' count of partial runs (timed runs that stopped early):
// "0", "1", and "2 (all)" when the group has no complete run.
std::string partial_short(const FleetGroup& group);

// The partial runs in words: "1 of 3 timed runs stopped early: FILE: run
// stopped in the read_grid phase (interrupted by signal 2)", more separated
// by "; ", at most `max_listed` named ("and 4 more"); "all 2 timed runs
// stopped early: ..." ("the only timed run ...") when no run is complete;
// "none" without one. Raw document text (file names, reasons): each renderer escapes it.
std::string partial_text(const FleetGroup& group, size_t max_listed = 10);

// What the representative run is, when that needs saying: "" for a complete
// run; "partial: every timed run of the group stopped early".
std::string representative_note(const FleetGroup& group);

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
