#include "run/document.h"

#include <sys/utsname.h>

#include <algorithm>
#include <fmt/format.h>

#include "core/clock_text.h"

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

}  // namespace

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
  doc.erase_block = needs_writes("erase block");
  return doc;
}

void add_notes(ResultDocument& doc, const std::vector<std::string>& notes) {
  for (const auto& note : notes) {
    if (std::find(doc.notes.begin(), doc.notes.end(), note) == doc.notes.end()) doc.notes.push_back(note);
  }
}

void record_read(ResultDocument& doc, const GridProbeResult& read, const char* grid_name, uint32_t queue_depth,
                 const std::string& device_state) {
  doc.read_page = {read.verdict.bytes, read.verdict.state, read.verdict.confidence, read.verdict.evidence,
                   read.verdict.levels, device_state, read.verdict.searched_up_to_bytes, read.verdict.fit_dispersion, {}};
  add_notes(doc, read.plan.notes);
  doc.grids.push_back(GridReport{grid_name, "read", queue_depth, read.grid, read.round_shifts_us});
}

void use_saved_units(ResultDocument& doc, const MeasuredUnits& saved, const std::string& file) {
  const std::string evidence = fmt::format("from {} (measured on {})", file, saved.path);
  auto take = [&](DetectedUnit& unit, const std::optional<uint64_t>& bytes) {
    if (!bytes) return;
    unit.bytes = bytes;
    unit.state = UnitState::found;
    unit.evidence = evidence;
  };
  take(doc.read_page, saved.read_page);
  take(doc.write_unit, saved.write_unit);
  take(doc.erase_block, saved.erase_block);
  const Topology& t = doc.topology;
  if ((!saved.model.empty() && saved.model != t.model) || (!saved.serial.empty() && saved.serial != t.serial)) {
    doc.notes.push_back(fmt::format("{} describes another drive (model '{}', serial '{}'; this one: '{}', '{}'): the "
                                    "units may not apply", file, saved.model, saved.serial, t.model, t.serial));
  }
}

}  // namespace ssdprobe
