#include "run/verdict_builder.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/block_size_policy.h"
#include "core/shell_command.h"
#include "core/units.h"
#include "report/enum_names.h"
#include "run/run_cautions.h"
#include "run/verdict_summary.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kOneMiB = 1 << 20;  // the partition alignment every tool defaults to

// The largest significant measured cost of a line: "4 KiB reads cost 1.09x
// (95 % 1.05-1.13)"; "no measurable cost" when every cost was measured and
// none is significant; empty when nothing was measured.
void measured_cost(const AuditLine& line, VerdictFinding& f) {
  const AuditCost* worst = nullptr;
  bool any_determined = false;
  for (const auto& c : line.costs) {
    if (!c.cost.determined) continue;
    any_determined = true;
    if (c.cost.significant && (worst == nullptr || c.cost.ratio > worst->cost.ratio)) worst = &c;
  }
  if (worst != nullptr) {
    f.cost_ratio = worst->cost.ratio;
    f.cost = fmt::format("{} {}s there cost {:.2f}x an aligned start (95 % {:.2f}-{:.2f})",
                         format_size(worst->request_bytes), worst->op, worst->cost.ratio, worst->cost.ratio_low,
                         worst->cost.ratio_high);
  } else if (any_determined) {
    f.cost = "no measurable cost in the IO sizes timed";
  }
}

// The first step of a fix (layout/audit_fix.h: every plan's first step runs
// as printed, in a directory of its own where it needs one). Null when there
// is no fix.
const FixStep* main_step(const AuditLine& line) { return line.fix.empty() ? nullptr : &line.fix.front(); }

// That step's command, or its words when the step is the user's (a backup).
std::string first_fix(const AuditLine& line) {
  const FixStep* step = main_step(line);
  if (step == nullptr) return "";
  return step->command.empty() ? step->purpose : step->command;
}

// Every line the audit checked on the disk's layout. Not the starts asked
// about with --at: they are what-ifs, not something on the disk to fix (the
// audit section prices them).
std::vector<const AuditLine*> audit_lines(const ResultDocument& doc) {
  std::vector<const AuditLine*> lines;
  if (!doc.audit || !doc.audit->layout) return lines;
  for (const auto& line : doc.audit->layout->lines) lines.push_back(&line);
  return lines;
}

// The finding in a few words for the one-line summary: a start names where
// it is and the most basic boundary it misses ("partition 1 starts at 32256
// B (sector 63 ...), 3.5 KiB past a 4 KiB boundary"); other lines keep the
// audit's message.
std::string headline(const AuditLine& line) {
  if (!line.disk_offset || line.misses.empty()) return fmt::format("{}: {}", line.layer, line.message);
  const UnitMiss& miss = line.misses.front();
  const bool named_by_size = miss.unit == "4 KiB" || miss.unit == "1 MiB";
  const std::string boundary = named_by_size ? miss.unit : fmt::format("{} ({})", miss.unit, format_size(miss.unit_bytes));
  // "sector 63 (DOS ...)" names the start better than bytes; "1536 B (sector 3)" would only repeat them.
  // Only "sector 63": which tool made it ("(DOS / Windows XP partitioning)")
  // is in the audit line, and the status line needs the room.
  const bool names_sector = line.legacy_case.starts_with("sector ");
  const std::string sector = line.legacy_case.substr(0, line.legacy_case.find(" ("));
  return fmt::format("{} starts at {}{}, {} past a {} boundary", line.layer, format_exact_size(*line.disk_offset),
                     names_sector ? ", " + sector : "", format_size(miss.remainder), boundary);
}

// How much the fix disturbs: 0 in place, 1 moves data, 2 destroys it (a
// backup and restore); 3 when there is no fix at all.
int disruption(const AuditLine& line) {
  const FixStep* step = main_step(line);
  if (step == nullptr) return 3;
  int worst = 0;
  for (const auto& s : line.fix) worst = std::max(worst, s.destroys_data ? 2 : s.moves_data ? 1 : 0);
  return worst;
}

VerdictFinding finding_of(const AuditLine& line) {
  VerdictFinding f;
  f.disruption = disruption(line);
  f.headline = headline(line);
  f.severity = line.severity;
  f.field = line.field;
  f.layer = line.layer;
  f.message = line.message;
  measured_cost(line, f);
  f.fix = first_fix(line);
  return f;
}

std::vector<UnderReported> under_reported(const ResultDocument& doc) {
  std::vector<UnderReported> out;
  for (const auto& m : doc.mismatches) {
    const bool kernel_size = m.field == "minimum_io_size" || m.field == "physical_block_size" ||
                             m.field == "optimal_io_size";
    if (kernel_size && m.reported && m.detected && *m.reported < *m.detected) {
      out.push_back({m.field, *m.reported, *m.detected});
    }
  }
  return out;
}

std::string stopped_phrase(const ResultDocument& doc) {
  const PhaseRecord* last_failure = nullptr;
  for (const auto& p : doc.phases) {
    if (p.state == PhaseState::interrupted) return fmt::format("run stopped in the {} phase ({})", p.name, p.reason);
    if (p.state == PhaseState::failed) last_failure = &p;
    if (p.state == PhaseState::not_run) {
      const PhaseRecord& stop = last_failure != nullptr ? *last_failure : p;
      return fmt::format("run stopped in the {} phase ({})", stop.name, stop.reason);
    }
  }
  return "";
}

// True only when something was found, 1 MiB covers it, 4 KiB IO costs no
// more than a block, and nothing on the disk is misaligned.
bool defaults_right(const ResultDocument& doc, const Verdict& v) {
  const bool any_found = std::any_of(v.units.begin(), v.units.end(),
                                     [](const VerdictUnit& u) { return u.answer == UnitAnswer::found; });
  const BlockSizePolicy policy = block_size_policy(doc.read_page.bytes, doc.write_unit.bytes);
  return any_found && v.findings.empty() && doc.recommendations.partition_alignment_bytes == kOneMiB &&
         policy.unit.value_or(kDefaultFilesystemBlock) <= kDefaultFilesystemBlock;
}

// With nothing to fix, the first thing to do is the one rerun that would
// tell a unit the advice rests on, if there is one.
std::optional<FirstAction> next_measurement(const Verdict& v) {
  for (const auto& u : v.units) {
    if (u.answer == UnitAnswer::found || u.rerun.empty() || !decides_advice(u)) continue;
    return FirstAction{fmt::format("{}: {}", u.text, u.to_determine), u.rerun};
  }
  return std::nullopt;
}

// The worst finding's first fix step, with what it is for and costs.
FirstAction first_fix_action(const ResultDocument& doc, const VerdictFinding& worst) {
  FirstAction action{fmt::format("{}fix {} ({})", optional_fix(worst) ? "optional (a convention, no measured cost): "
                                                                        : "", worst.layer, worst.field), ""};
  for (const AuditLine* line : audit_lines(doc)) {
    const FixStep* step = line->field == worst.field ? main_step(*line) : nullptr;
    if (step == nullptr) continue;
    action.command = step->command;
    action.text += fmt::format(": {}{}", step->purpose, step->cost.empty() ? "" : fmt::format(" [{}]", step->cost));
    if (line->fix.size() > 1) {
      action.text += fmt::format(" ({} steps in all: the audit lists them in order)", line->fix.size());
    }
    break;
  }
  return action;
}

}  // namespace

std::vector<VerdictFinding> ranked_findings(const ResultDocument& doc) {
  std::vector<VerdictFinding> findings;
  for (const AuditLine* line : audit_lines(doc)) {
    if (!line->ok) findings.push_back(finding_of(*line));
  }
  // Worst first; between equals, the one whose fix disturbs least, so the
  // first thing to do is the cheapest of the worst.
  std::stable_sort(findings.begin(), findings.end(), [](const VerdictFinding& a, const VerdictFinding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.cost_ratio != b.cost_ratio) return a.cost_ratio > b.cost_ratio;
    return a.disruption < b.disruption;
  });
  return findings;
}

// ACTION: a finding on the disk with a measured cost, or one that contradicts
// a unit (not a convention without a cost). INCONCLUSIVE: the run stopped
// early, or the units the block-size and alignment advice rest on (the read
// page, and the write unit on a --write run) were not determined. OK:
// nothing to change.
// Without timing, only an audit of a layout can say there is nothing to
// change.
VerdictStatus status_of(const Verdict& v, const ResultDocument& doc, const RunFacts& facts) {
  if (std::any_of(v.findings.begin(), v.findings.end(), [](const VerdictFinding& f) { return !optional_fix(f); })) {
    return VerdictStatus::action;
  }
  if (!v.stopped.empty()) return VerdictStatus::inconclusive;
  if (!facts.timed) return doc.audit && doc.audit->layout ? VerdictStatus::ok : VerdictStatus::inconclusive;
  for (const VerdictUnit& u : v.units) {
    const bool decides = u.name == "read_page" || (u.name == "write_unit" && facts.write);
    if (facts.timed && decides && u.answer == UnitAnswer::not_determined) return VerdictStatus::inconclusive;
  }
  return VerdictStatus::ok;
}

Verdict build_verdict(ResultDocument& doc, const RunFacts& facts) {
  Verdict v;
  v.units = answer_units(doc, facts);
  v.under_reported = under_reported(doc);
  v.findings = ranked_findings(doc);
  for (const auto& f : v.findings) ++v.findings_by_severity[static_cast<size_t>(f.severity)];
  v.stopped = stopped_phrase(doc);
  v.cautions = run_cautions(doc);
  if (!v.findings.empty()) v.first_action = first_fix_action(doc, v.findings.front());
  for (VerdictUnit& u : v.units) {
    if (u.name == "slc_cache" && !burst_phrase(doc).empty()) u.text += ": " + burst_phrase(doc);
  }
  const bool any_found = std::any_of(v.units.begin(), v.units.end(),
                                     [](const VerdictUnit& u) { return u.answer == UnitAnswer::found; });
  if (v.findings.empty() && v.stopped.empty() && (facts.timed || any_found)) v.defaults_right = defaults_right(doc, v);
  if (!v.first_action) v.first_action = next_measurement(v);
  v.status = status_of(v, doc, facts);
  v.summary = fmt::format("{}: {}", verdict_status_name(v.status), status_headline(v, doc, facts));
  v.lines = summary_lines(v, doc, facts);
  return v;
}

}  // namespace ssdprobe
