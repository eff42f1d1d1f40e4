#include "run/document.h"

#include <sys/utsname.h>

#include <algorithm>
#include <fmt/format.h>

#include "core/clock_text.h"
#include "report/unit_answer.h"

namespace ssdprobe {
namespace {

DetectedUnit needs_writes(const char* what) {
  DetectedUnit unit;
  unit.evidence = fmt::format("not measured: the {} only shows under writes, and write probes were not enabled "
                              "(--write)", what);
  return unit;
}

// The machine's name as uname(2) gives it: whose drive a saved document
// describes, once documents from many servers are compared.
std::string host_name() {
  struct utsname name {};
  return ::uname(&name) == 0 ? std::string(name.nodename) : std::string();
}

// What differs between the drive a saved document describes and the one
// audited. A matching serial settles it (a renamed node is the same drive);
// without serials the path is all there is to compare.
std::vector<std::string> identity_differences(const MeasuredUnits& saved, const Topology& t,
                                              const std::string& target_path) {
  std::vector<std::string> differs;
  const bool same_serial = !saved.serial.empty() && saved.serial == t.serial;
  if (!same_serial && (!saved.serial.empty() || !t.serial.empty())) {
    differs.push_back(fmt::format("serial '{}', this drive '{}'", saved.serial, t.serial));
  }
  if (saved.model != t.model && (!saved.model.empty() || !t.model.empty())) {
    differs.push_back(fmt::format("model '{}', this drive '{}'", saved.model, t.model));
  }
  if (!same_serial && saved.path != target_path) {
    differs.push_back(fmt::format("measured on {}, auditing {}", saved.path, target_path));
  }
  return differs;
}

}  // namespace

std::vector<std::string> saved_units_warnings(const MeasuredUnits& saved, const Topology& topology,
                                              const std::string& target_path, const std::string& file) {
  std::vector<std::string> warnings;
  const auto differs = identity_differences(saved, topology, target_path);
  if (!differs.empty()) {
    std::string what;
    for (const auto& d : differs) what += (what.empty() ? "" : "; ") + d;
    warnings.push_back(fmt::format("--units-from {}: the document describes another device ({}): its units may "
                                   "not apply to this one", file, what));
  }
  if (!saved.read_page && !saved.write_unit && !saved.erase_block) {
    warnings.push_back(fmt::format("--units-from {}: the document determined no unit (an `info` document, or a run "
                                   "that found none): the audit checks only the block sizes, 4 KiB and 1 MiB, as "
                                   "without --units-from", file));
  }
  return warnings;
}

ResultDocument base_document(const Options& options, const Target& target) {
  ResultDocument doc;
  doc.started_at = utc_now_text(kIso8601Utc);
  doc.hostname = host_name();
  doc.command_line = options.command_line;
  doc.options = options.echo;
  doc.options.set("target", target.path);
  doc.path = target.path;
  doc.kind = target.kind;
  doc.topology = target.topology;
  doc.notes = target.notes;
  doc.write_unit = needs_writes("write unit");
  doc.write_stripe = needs_writes("write stripe");
  doc.erase_block = needs_writes("erase block");
  doc.open_units.verdict.evidence = needs_writes("number of write streams the drive keeps open").evidence;
  return doc;
}

void add_notes(ResultDocument& doc, const std::vector<std::string>& notes) {
  for (const auto& note : notes) {
    if (std::find(doc.notes.begin(), doc.notes.end(), note) == doc.notes.end()) doc.notes.push_back(note);
  }
}

void record_read(ResultDocument& doc, GridProbeResult read, const char* grid_name, uint32_t queue_depth,
                 const std::string& device_state) {
  doc.read_page = {read.verdict.bytes, read.verdict.state, read.verdict.confidence, read.verdict.evidence,
                   read.verdict.levels, device_state, read.verdict.searched_up_to_bytes, read.verdict.fit_dispersion, {}, {},
                   best_candidate(read.verdict), best_candidate_support(read.verdict), {}};
  add_notes(doc, read.plan.notes);
  record_read_grid(doc, std::move(read), grid_name, queue_depth);
}

void record_read_grid(ResultDocument& doc, GridProbeResult read, const char* grid_name, uint32_t queue_depth) {
  doc.grids.push_back(GridReport{grid_name, "read", queue_depth, std::move(read.grid), std::move(read.round_shifts_us),
                                 std::move(read.corrected), read.first_look});
}

void use_saved_units(ResultDocument& doc, const MeasuredUnits& saved, const std::string& file) {
  const std::string evidence = fmt::format("from {} (measured on {})", file, saved.path);
  // The saved answer whole: a found unit with its confidence, a ruled-out
  // one with its reach; a unit the document did not measure stays so.
  auto take = [&](DetectedUnit& unit, const std::optional<uint64_t>& bytes, const SavedUnit& answer) {
    const UnitAnswer saved_answer = unit_answer(answer.state);
    if (!bytes && saved_answer != UnitAnswer::ruled_out) return;
    unit.bytes = bytes;
    unit.state = bytes ? UnitState::found : UnitState::absent;
    unit.confidence = bytes ? answer.confidence : 0.0;
    unit.searched_up_to_bytes = answer.searched_up_to_bytes;
    unit.evidence = evidence;
  };
  take(doc.read_page, saved.read_page, saved.read_page_answer);
  take(doc.write_unit, saved.write_unit, saved.write_unit_answer);
  take(doc.erase_block, saved.erase_block, saved.erase_block_answer);
  for (auto& warning : saved_units_warnings(saved, doc.topology, doc.path, file)) doc.notes.push_back(warning);
}

}  // namespace ssdprobe
