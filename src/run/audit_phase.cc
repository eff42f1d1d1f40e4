#include "run/audit_phase.h"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>

#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "layout/audit_cost.h"
#include "layout/file_audit.h"
#include "layout/layout_source.h"
#include "layout/zoned_audit.h"
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
  // Costs come from the drift-corrected latencies where the run kept them.
  auto latencies = [](const GridReport& g) { return g.corrected.cell_count() != 0 ? &g.corrected : &g.grid; };
  std::vector<CostGrid> grids;
  if (read != nullptr) grids.push_back({read->name, "read", latencies(*read)});
  if (write != nullptr) grids.push_back({write->name, "write", latencies(*write)});
  return grids;
}

double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// The sequential rates a data move is priced at: the read grid's largest
// requests at queue depth 1 (one request at a time: a floor of what a
// sequential copy reaches) and the write probe's timed sequential stream.
FixContext fix_context(const ResultDocument& doc) {
  FixContext context;
  const auto grids = cost_grids(doc);
  if (!grids.empty() && grids.front().op == "read" && !grids.front().grid->sizes.empty()) {
    const LatencyGrid& g = *grids.front().grid;
    std::vector<double> row;
    for (size_t column = 0; column < g.offsets.size(); ++column) {
      const auto& cell = g.cell(g.sizes.size() - 1, column);
      row.insert(row.end(), cell.begin(), cell.end());
    }
    if (!row.empty() && median_of(row) > 0) {
      context.read_bytes_per_s = static_cast<double>(g.sizes.back()) / (median_of(row) * 1e-6);
      context.read_rate_source = fmt::format("the {} grid's {} reads, one at a time", grids.front().name,
                                             format_size(g.sizes.back()));
    }
  }
  const auto& w = doc.write_probe;
  if (w && !w->stream_latency_us.empty() && w->stream_chunk_bytes && median_of(w->stream_latency_us) > 0) {
    context.write_bytes_per_s = static_cast<double>(w->stream_chunk_bytes) / (median_of(w->stream_latency_us) * 1e-6);
    context.write_rate_source = fmt::format("the write probe's sequential {} stream", format_size(w->stream_chunk_bytes));
  }
  return context;
}

// What --units-from had to say about its document (saved_units phase):
// the audit repeats it where its findings are read.
void add_saved_unit_notes(const ResultDocument& doc, LayoutAudit& audit) {
  for (const auto& note : doc.notes) {
    if (note.starts_with("--units-from")) audit.notes.push_back(note);
  }
}

// What a disk holds, found at a file's start: a partition table, md, LVM
// or a filesystem, or a sign of one that cannot be read (a protective MBR
// whose GPT is damaged or has other sectors, an md or LVM label that does
// not decode): the readers' notes say what they saw. Such a file is a disk
// image, whose damage is the audit's to report; any other is a file.
bool holds_a_disk_layout(const DiskLayout& layout) {
  if (layout.table || !layout.notes.empty()) return true;
  for (const LayoutStack& s : layout.stacks) {
    if (s.md || s.lvm || s.filesystem || !s.notes.empty()) return true;
  }
  return false;
}

// A directory, a file given with --extents, or a regular file that holds
// no disk layout at its start: judged by where its extents lie.
bool audit_as_files(const Target& target, const Options& options, const std::optional<DiskLayout>& image) {
  if (target.kind != TargetKind::file) return false;
  struct stat st {};
  if (::stat(target.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return true;
  return options.extents || (image && !holds_a_disk_layout(*image));
}

// `audit FILE|DIR`: the files' extents, their findings as the audit's lines.
void add_file_audit(ResultDocument& doc, AuditSection& section, const Target& target, const AuditUnits& units) {
  FileExtentsAudit files = read_file_extents(target.path, units);
  LayoutAudit audit = file_extents_layout_audit(files, units);
  add_saved_unit_notes(doc, audit);
  for (auto& m : audit_mismatches(audit)) doc.mismatches.push_back(std::move(m));
  section.layout = std::move(audit);
  section.files = std::move(files);
}

// The disk (or disk image) under `target`, unless it is a directory or
// --extents asked for the file itself.
std::optional<DiskLayout> read_image_layout(const Target& target, const Options& options) {
  struct stat st {};
  const bool directory = ::stat(target.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  if (directory || (target.kind == TargetKind::file && options.extents)) return std::nullopt;
  const OpenedLayoutSource opened = open_layout_source(target);
  return read_disk_layout(opened.source);
}

}  // namespace

bool is_disk_image(const Target& target, const Options& options) {
  if (target.kind != TargetKind::file) return false;
  try {
    const std::optional<DiskLayout> image = read_image_layout(target, options);
    return image && holds_a_disk_layout(*image);
  } catch (const Error&) {
    return false;
  }
}

namespace {

// What stopped the layout readers, kept with its exit code: permission
// denied, an IO error or a filesystem without FIEMAP keep theirs; whatever
// else stops them makes the target unusable.
void record_unavailable(AuditSection& section, const Error& e) {
  section.unavailable_reason = e.what();
  const ErrorCategory c = e.category();
  const bool kept = c == ErrorCategory::permission || c == ErrorCategory::io || c == ErrorCategory::interrupted ||
                    c == ErrorCategory::unsupported;
  section.unavailable_category = kept ? c : ErrorCategory::target;
}

// The disk's (or disk image's) layout, judged and priced from the grids.
void add_disk_audit(ResultDocument& doc, AuditSection& section, const DiskLayout& layout, const AuditUnits& units,
                    const Options& options) {
  LayoutAudit audit = audit_layout(layout, units);
  attach_costs(audit, cost_grids(doc), options.seed);
  attach_fixes(audit, fix_context(doc));
  if (doc.topology.zoned) {
    if (auto finding = zoned_partition_table_finding(audit.layout, *doc.topology.zoned)) {
      audit.lines.push_back(std::move(*finding));
    }
  }
  add_saved_unit_notes(doc, audit);
  for (auto& m : audit_mismatches(audit)) doc.mismatches.push_back(std::move(m));
  section.layout = std::move(audit);
}

}  // namespace

void add_audit(ResultDocument& doc, const Target& target, const Options& options) {
  AuditSection section;
  const AuditUnits units = units_of(doc);
  try {
    const std::optional<DiskLayout> layout = read_image_layout(target, options);
    if (audit_as_files(target, options, layout)) {
      add_file_audit(doc, section, target, units);
    } else {
      add_disk_audit(doc, section, *layout, units, options);
    }
  } catch (const Error& e) {
    record_unavailable(section, e);
  }
  const auto grids = cost_grids(doc);
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
  if (!run.doc.audit->layout) throw Error(run.doc.audit->unavailable_category, run.doc.audit->unavailable_reason);
  return PhaseOutcome::done();
}

std::optional<std::string> skip_saved_units_if_none(const RunContext& run) {
  if (run.options.units_from.empty()) return std::string("no --units-from: checked against the reported block sizes");
  return std::nullopt;
}

PhaseOutcome take_saved_units(RunContext& run) {
  const MeasuredUnits saved = read_measured_units(run.options.units_from);
  use_saved_units(run.doc, saved, run.options.units_from);
  for (const auto& warning : saved_units_warnings(saved, run.doc.topology, run.doc.path, run.options.units_from)) {
    print_quietly(stderr, fmt::format("ssdprobe: warning: {}\n", warning));
  }
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
