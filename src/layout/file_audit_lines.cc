// The file audit's findings and notes (file_audit.h): one AuditLine per
// file whose data is misaligned, and what was not judged.
#include <fmt/format.h>

#include "core/output.h"
#include "core/plural.h"
#include "core/units.h"
#include "layout/file_audit.h"

namespace ssdprobe {
namespace {

std::string unit_words(const ExtentUnit& u) {
  return u.name == "4 KiB" ? std::string("4 KiB") : fmt::format("the {} ({})", u.name, format_size(u.bytes));
}

std::string percent(double share) { return fmt::format("{:.1f} %", share * 100.0); }

// "25.0 % of its 1 MiB of data is in extents misaligned to the write unit
// (16 KiB) (256 KiB in 2 extents), 0.0 % to 4 KiB; largest: ..."
std::string misaligned_message(const ExtentJudgement& j) {
  std::string text;
  for (const UnitShare& s : j.shares) {
    text += text.empty() ? fmt::format("{} of its {} of data is in extents misaligned to {} ({} in {})",
                                       percent(j.share(s)), format_size(j.data_bytes), unit_words(s.unit),
                                       format_size(s.misaligned_bytes), counted(s.misaligned_extents, "extent"))
                         : fmt::format(", {} to {}", percent(j.share(s)), unit_words(s.unit));
  }
  if (!j.worst.empty()) {
    const JudgedExtent& w = j.worst.front();
    text += fmt::format("; largest: {} at file offset {}, disk offset {}", format_size(w.length),
                        format_exact_size(w.logical), format_exact_size(w.disk_offset));
  }
  return text;
}

AuditLine file_line(const FileExtentsAudit& files, size_t index, FileFixesGiven& given) {
  const FileExtentReport& f = files.files[index];
  AuditLine line;
  line.field = fmt::format("file[{}].extents", index);
  line.layer = "file " + printable(f.path);
  for (const UnitShare& s : f.judgement.shares) {
    if (s.misaligned_bytes == 0) continue;
    line.ok = false;
    line.severity = std::max(line.severity, s.unit.severity);
    if (line.value_bytes == 0) line.value_bytes = s.misaligned_bytes;
    line.misses.push_back({s.unit.name, s.unit.bytes, s.misaligned_bytes});
  }
  line.message = misaligned_message(f.judgement);
  if (!line.ok) line.fix = file_extent_fix(files, f, line.field, given);
  return line;
}

// With nothing misaligned, one OK line says what was judged, so a clean
// audit is told apart from one that found nothing to check.
AuditLine clean_line(const FileExtentsAudit& files) {
  AuditLine line;
  line.field = "files.extents";
  line.layer = files.directory ? "files under " + printable(files.root) : "file " + printable(files.root);
  std::string units;
  for (const ExtentUnit& u : files.units) units += (units.empty() ? "" : ", ") + unit_words(u);
  line.message = fmt::format("{} of data in {} ({}): every extent is aligned to {}", format_size(files.total.data_bytes),
                             counted(files.total.merged_count, "extent"), counted(files.files.size(), "file"), units);
  return line;
}

// Bytes that were not judged, by kind, with why (over every file).
void unjudged_notes(const FileExtentsAudit& files, std::vector<std::string>& notes) {
  for (const auto& [kind, bytes] : files.total.unjudged) {
    notes.push_back(fmt::format("{} in {} extents not judged: {}", format_size(bytes), extent_kind_name(kind),
                                extent_kind_reason(kind)));
  }
  if (files.total.hole_bytes) {
    notes.push_back(fmt::format("{} of holes (no extent: nothing on the disk, reads as zeros) not judged",
                                format_size(files.total.hole_bytes)));
  }
}

void walk_notes(const FileExtentsAudit& files, std::vector<std::string>& notes) {
  if (files.skipped_links) notes.push_back(counted(files.skipped_links, "symbolic link") + " not followed");
  if (files.skipped_mounts) notes.push_back(counted(files.skipped_mounts, "entry", "entries") +
                                            " on another filesystem (a mount point) not entered");
  if (files.skipped_special) notes.push_back(counted(files.skipped_special, "entry", "entries") +
                                             " that are not regular files (devices, FIFOs, sockets) or lie deeper "
                                             "than 64 directories not read");
  if (files.cut) notes.push_back(fmt::format("only the first {} regular files were read", kMaxAuditFiles));
  for (const FileExtentReport& f : files.files) {
    if (!f.error.empty()) notes.push_back(fmt::format("{}: not read: {}", printable(f.path), f.error));
    if (f.extents_cut) notes.push_back(printable(f.path) + ": only its first extents were read");
  }
}

}  // namespace

LayoutAudit file_extents_layout_audit(const FileExtentsAudit& files, const AuditUnits& units) {
  LayoutAudit audit;
  audit.units = units;
  audit.layout.disk_path = files.filesystem.disk.empty() ? files.root : files.filesystem.disk;
  audit.layout.logical_block = units.logical_block;
  FileFixesGiven given;
  for (size_t i = 0; i < files.files.size(); ++i) {
    if (files.files[i].error.empty()) {
      AuditLine line = file_line(files, i, given);
      if (!line.ok) audit.lines.push_back(std::move(line));
    }
  }
  if (audit.lines.empty() && files.filesystem.offsets_unknown.empty()) audit.lines.push_back(clean_line(files));
  if (!files.filesystem.offsets_unknown.empty()) {
    audit.notes.push_back("no extent judged: " + files.filesystem.offsets_unknown);
  }
  for (const std::string& note : files.filesystem.notes) audit.notes.push_back(note);
  unjudged_notes(files, audit.notes);
  walk_notes(files, audit.notes);
  if (!units.read_page) audit.notes.push_back("read page " + units.read_page_answer + ": extents are not checked against it");
  if (!units.write_unit) audit.notes.push_back("write unit " + units.write_unit_answer + ": extents are not checked against it");
  return audit;
}

}  // namespace ssdprobe
