// What a run concludes, in the order a person needs it: the one-line summary
// (the text report's first line, the JSON's verdict.summary), each unit's
// answer, where the kernel under-reports, the audit's findings by severity
// and the first thing to do. Built by run/verdict_builder.h from the rest of
// the document, so it can never say something the document below it does
// not: the worst audit finding comes first, and "the defaults are right"
// only when nothing on the disk is misaligned.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdicts.h"
#include "report/unit_answer.h"

namespace ssdprobe {

struct VerdictUnit {
  std::string name;  // "read_page", "write_unit", "erase_block", "slc_cache", "open_units"
  UnitAnswer answer = UnitAnswer::not_measured;
  std::optional<uint64_t> bytes;
  std::optional<uint32_t> count;  // open_units (found): streams, where a unit of bytes has `bytes`
  std::string short_text;  // the answer alone, as the summary's units line lists it: "open units 4 streams"
  double confidence = 0.0;
  std::optional<uint64_t> searched_up_to_bytes;
  std::string text;          // the phrase the summary uses: "read page 16 KiB", "no erase block up to 85 MiB"
  std::string to_determine;  // what would tell (not determined, not measured); empty otherwise
  std::string rerun;         // the rerun that would tell, as a command keeping the run's options; empty: none
};

struct UnderReported {
  std::string field;  // "minimum_io_size", "physical_block_size", "optimal_io_size"
  int64_t reported = 0;
  int64_t detected = 0;
};

// One audit finding (a line that is not OK), as the verdict ranks it.
struct VerdictFinding {
  Severity severity = Severity::warning;
  std::string field;    // "partition[1].start", "partition[1].xfs.sunit"
  std::string layer;    // "partition 1 (/dev/loop0p1)"
  std::string message;  // the audit's line
  std::string headline; // the finding in a few words, as the summary says it
  std::string cost;     // the measured cost in a few words, or empty when none was measured
  double cost_ratio = 0.0;  // the largest significant ratio, 0 when none
  std::string fix;      // the first step of its fix, in words or as a command
  int disruption = 0;   // its fix: 0 in place, 1 moves data, 2 destroys data, 3 none (ranks equals)
};

// An info finding with no measured cost is a convention missed: its fix is
// optional, never "first" (moving a partition for it is out of proportion).
inline bool optional_fix(const VerdictFinding& f) { return f.severity == Severity::info && f.cost_ratio <= 0.0; }

struct FirstAction {
  std::string text;     // what to do, in words
  std::string command;  // the command to run first, or empty
};

// The one word a script and a person read the same way, as `smartctl -H`
// gives one: nothing to change, a finding to act on, or the advice rests on
// something the run did not determine.
// report/enum_names.h names it ("OK", "ACTION", "INCONCLUSIVE").
enum class VerdictStatus { ok, action, inconclusive };

struct Verdict {
  VerdictStatus status = VerdictStatus::inconclusive;
  std::string summary;  // the status line, starting with the status word: "ACTION: ..."
  std::vector<std::string> lines;  // at most three after it: what to do first, the units, what is open
  std::vector<VerdictUnit> units;  // read page, write unit, erase block; SLC cache and open units where probed
  std::vector<UnderReported> under_reported;
  std::vector<VerdictFinding> findings;  // worst first
  std::array<int, 3> findings_by_severity{};  // indexed by Severity: info, warning, error
  std::optional<FirstAction> first_action;   // none when there is nothing to do
  bool defaults_right = false;  // 1 MiB alignment and 4 KiB blocks suit the drive and the disk
  std::string stopped;  // how the run stopped early, or empty
  std::vector<std::string> cautions;  // what may have disturbed the answers (other IO, a stopped run)
};

// The most severe audit finding or mismatch, none when there is neither:
// what --fail-on compares against.
inline std::optional<Severity> worst_severity(const Verdict& verdict, const std::vector<Mismatch>& mismatches) {
  std::optional<Severity> worst;
  auto consider = [&](Severity s) { if (!worst || s > *worst) worst = s; };
  for (const auto& f : verdict.findings) consider(f.severity);
  for (const auto& m : mismatches) consider(m.severity);
  return worst;
}

}  // namespace ssdprobe
