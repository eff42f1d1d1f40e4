#include "run/audit_phase.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "layout/audit_cost.h"
#include "layout/layout_source.h"
#include "report/result_reader.h"
#include "report/unit_answer.h"
#include "run/document.h"

namespace ssdprobe {
namespace {

// "not measured (no --write)", "ruled out", "not determined": the unit's
// answer in the words every output uses (report/unit_answer.h).
std::string answer_words(const DetectedUnit& unit) {
  const UnitAnswer answer = unit_answer(unit.state);
  const bool needs_write = unit.evidence.find("(--write)") != std::string::npos;
  if (answer == UnitAnswer::not_measured && needs_write) return "not measured (no --write)";
  return unit_answer_words(answer);
}

AuditUnits units_of(const ResultDocument& doc) {
  AuditUnits units;
  units.logical_block = static_cast<uint32_t>(doc.topology.logical_block_size.value_or(512));
  units.physical_block = static_cast<uint32_t>(doc.topology.physical_block_size.value_or(units.logical_block));
  units.read_page = doc.read_page.bytes;
  units.write_unit = doc.write_unit.bytes;
  units.erase_block = doc.erase_block.bytes;
  units.read_page_answer = answer_words(doc.read_page);
  units.write_unit_answer = answer_words(doc.write_unit);
  units.erase_block_answer = answer_words(doc.erase_block);
  return units;
}

// The grids a cost is read from: the read grid the page was found in (the
// re-read of the written window when that is where it showed), and the
// write grid.
std::vector<CostGrid> cost_grids(const ResultDocument& doc) {
  const GridReport* read = nullptr;
  const GridReport* write = nullptr;
  for (const auto& g : doc.grids) {
    if (g.name == "write") write = &g;
    if (g.name == "read" && read == nullptr) read = &g;
    if (g.name == "read-written" && !doc.read_page.device_state.empty()) read = &g;
  }
  std::vector<CostGrid> grids;
  if (read != nullptr) grids.push_back({read->name, "read", &read->grid});
  if (write != nullptr) grids.push_back({write->name, "write", &write->grid});
  return grids;
}

}  // namespace

void add_audit(ResultDocument& doc, const Target& target, const Options& options) {
  AuditSection section;
  const AuditUnits units = units_of(doc);
  const auto grids = cost_grids(doc);
  try {
    const OpenedLayoutSource opened = open_layout_source(target);
    LayoutAudit audit = audit_layout(read_disk_layout(opened.source), units);
    attach_costs(audit, grids, options.seed);
    for (auto& m : audit_mismatches(audit)) doc.mismatches.push_back(std::move(m));
    section.layout = std::move(audit);
  } catch (const Error& e) {
    section.unavailable_reason = e.what();
  }
  for (const uint64_t start : parse_starts(options.at)) {
    AuditLine line = audit_start("at", fmt::format("a layer starting at {} B", start), start, units);
    attach_costs(line, units, grids, options.seed);
    section.at.push_back(std::move(line));
  }
  doc.audit = std::move(section);
}

PhaseOutcome audit_layout_phase(RunContext& run) {
  add_audit(run.doc, run.target, run.options);
  if (!run.doc.audit->layout) return PhaseOutcome::skipped(run.doc.audit->unavailable_reason);
  return PhaseOutcome::done();
}

PhaseOutcome audit_required_phase(RunContext& run) {
  add_audit(run.doc, run.target, run.options);
  if (!run.doc.audit->layout) throw Error(ErrorCategory::target, run.doc.audit->unavailable_reason);
  return PhaseOutcome::done();
}

std::optional<std::string> skip_saved_units_if_none(const RunContext& run) {
  if (run.options.units_from.empty()) return std::string("no --units-from: checked against the reported block sizes");
  return std::nullopt;
}

PhaseOutcome take_saved_units(RunContext& run) {
  use_saved_units(run.doc, read_measured_units(run.options.units_from), run.options.units_from);
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
