// Whole disk images from untrusted bytes, through everything `ssdprobe
// audit IMAGE` does with them: the layout reader (libblkid's partition table
// and content probes, the md, LVM and filesystem decoders, the stacks they
// compose), the audit against the units, the recommendations and verdict,
// and the result document as JSON and as text. The input describes a sparse
// image (disk_image.h); the target writes it into a memfd and audits that.
//
// The layout reader promises never to throw for content (what cannot be
// followed is a note), so here even ssdprobe::Error is a finding (add_audit
// would turn it into "audit not available"). The checks below are what the headers and
// docs/result-json.md promise a reader of the result:
//  - an image whose start holds no table, md, LVM or filesystem is a file,
//    judged by its extents, which a memfd cannot give: "not available",
//    naming FIEMAP, and no verdict;
//  - one stack per partition of the table (none but the extended container
//    skipped), or one stack for the whole disk when there is no table;
//  - a partition that runs past the image's end says so in a note, and is
//    an error finding of its own; a table is read no further than the cap;
//    a finding whose fix a person must decide gets words, no command;
//  - what a stack holds lies inside what was read of it, at the absolute
//    offset its layers add up to (partition + md data offset + PE start +
//    the LV's first extent);
//  - each check is OK exactly when nothing is missed or differs, OK checks
//    are `info`, each miss has a remainder below its unit, a misaligned
//    start suggests an aligned start at or above it;
//  - every check that is not OK is a mismatch; the verdict "nothing to
//    change" only when there are checks and all are OK;
//  - the audit's JSON dumps (after with_valid_utf8, as write_json does),
//    parses back and carries the same checks and stacks; the text report
//    (the audit's, and the whole report with mismatches and
//    recommendations) renders, and names every check.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "core/output.h"
#include "disk_image.h"
#include "fuzz_target.h"
#include "report/audit_render.h"
#include "report/text_report.h"
#include "report/utf8.h"

using namespace ssdprobe;

namespace {

bool mentions(const std::vector<std::string>& notes, const std::string& part) {
  for (const auto& note : notes) {
    if (note.find(part) != std::string::npos) return true;
  }
  return false;
}
bool has(const std::vector<std::string>& notes, const std::string& note) {
  return std::find(notes.begin(), notes.end(), note) != notes.end();
}

// The stacks are one per partition the table lists (extended containers
// excepted), in table order, or one for the whole disk.
void check_stacks_follow_table(const DiskLayout& layout) {
  if (!layout.table) {
    FUZZ_CHECK(layout.stacks.size() == 1);
    const LayoutStack& whole = layout.stacks[0];
    FUZZ_CHECK(!whole.partition && whole.start_disk_offset == 0 && whole.size_bytes == layout.disk_size_bytes);
    return;
  }
  FUZZ_CHECK(layout.table->scheme == "gpt" || layout.table->scheme == "dos");
  FUZZ_CHECK(layout.table->sector_bytes == layout.logical_block);
  size_t next = 0;
  for (const auto& entry : layout.table->partitions) {
    if (entry.container) continue;
    FUZZ_CHECK(next < layout.stacks.size());
    const LayoutStack& stack = layout.stacks[next++];
    FUZZ_CHECK(stack.partition && stack.partition->number == entry.number);
    FUZZ_CHECK(stack.start_disk_offset == entry.start_bytes && stack.size_bytes == entry.size_bytes);
  }
  FUZZ_CHECK(next == layout.stacks.size());
}

// What the reader could read of a stack: its partition, cut at the image's end.
uint64_t readable_bytes(const LayoutStack& stack, uint64_t disk_size) {
  if (stack.start_disk_offset >= disk_size) return 0;
  return std::min(stack.size_bytes, disk_size - stack.start_disk_offset);
}

// Where the filesystem must be, from the layers it is inside.
void check_filesystem_place(const LayoutStack& stack, uint64_t disk_size) {
  const uint64_t readable = readable_bytes(stack, disk_size);
  FUZZ_CHECK(stack.filesystem_disk_offset >= stack.start_disk_offset);
  FUZZ_CHECK(stack.filesystem_disk_offset - stack.start_disk_offset < readable);
  const std::string& container = stack.filesystem_container;
  const uint64_t md_offset = stack.md ? stack.md->data_offset_bytes : 0;
  if (container == "disk" || container == "partition") {
    FUZZ_CHECK(stack.filesystem_disk_offset == stack.start_disk_offset);
  } else if (container == "md") {
    FUZZ_CHECK(stack.md && stack.filesystem_disk_offset == stack.start_disk_offset + md_offset);
  } else {
    FUZZ_CHECK(container.starts_with("lvm:") && stack.lvm && stack.lvm->extent_bytes);
    const LvmPhysicalVolume& pv = *stack.lvm;
    bool found = false;
    for (const auto& segment : pv.segments) {
      found |= "lvm:" + segment.lv_name == container && segment.lv_start_extent == 0 &&
               stack.filesystem_disk_offset == stack.start_disk_offset + md_offset + pv.pe_start_bytes +
                                                   segment.pv_start_extent * *pv.extent_bytes;
    }
    FUZZ_CHECK(found);
  }
}

void check_stack(const LayoutStack& stack, uint64_t disk_size) {
  const uint64_t readable = readable_bytes(stack, disk_size);
  if (stack.partition && readable < stack.size_bytes) {
    FUZZ_CHECK(mentions(stack.notes, "past the end of the disk"));
  }
  if (stack.md) {
    const MdSuperblock& md = *stack.md;
    FUZZ_CHECK(md.data_offset_bytes + md.data_size_bytes <= readable);
    FUZZ_CHECK(md.role >= -1 && md.role < md.raid_disks && md.data_disks() >= 1);
  }
  if (stack.lvm) {
    FUZZ_CHECK(stack.lvm->pe_start_bytes > stack.lvm->label_offset_bytes);
    for (const auto& segment : stack.lvm->segments) FUZZ_CHECK(segment.stripes >= 1 && segment.extent_count >= 1);
  }
  if (stack.filesystem) check_filesystem_place(stack, disk_size);
}

const AuditLine* line_named(const LayoutAudit& audit, const std::string& field) {
  for (const auto& line : audit.lines) {
    if (line.field == field) return &line;
  }
  return nullptr;
}

// Each layer start of a stack has its check, at the layer's absolute offset.
void check_starts_checked(const LayoutAudit& audit, const LayoutStack& stack) {
  const std::string prefix = stack.partition ? fmt::format("partition[{}].", stack.partition->number) : "";
  if (stack.partition) {
    const AuditLine* start = line_named(audit, prefix + "start");
    FUZZ_CHECK(start && start->disk_offset == stack.start_disk_offset);
  }
  const uint64_t md_offset = stack.md ? stack.md->data_offset_bytes : 0;
  if (stack.md) {
    const AuditLine* data = line_named(audit, prefix + "md.data_offset");
    FUZZ_CHECK(data && data->disk_offset == stack.start_disk_offset + md_offset);
  }
  if (stack.lvm) {
    const AuditLine* pe = line_named(audit, prefix + "lvm.pe_start");
    FUZZ_CHECK(pe && pe->disk_offset == stack.start_disk_offset + md_offset + stack.lvm->pe_start_bytes);
  }
}

void check_line(const AuditLine& line, uint64_t alignment) {
  FUZZ_CHECK(!line.field.empty() && !line.layer.empty() && !line.message.empty());
  if (line.ok) FUZZ_CHECK(line.severity == Severity::info);
  if (line.ok) FUZZ_CHECK(line.fix.empty());  // only findings get a fix
  for (const auto& miss : line.misses) {
    FUZZ_CHECK(miss.unit_bytes != 0 && miss.remainder != 0 && miss.remainder < miss.unit_bytes);
  }
  if (!line.disk_offset) return;
  FUZZ_CHECK(line.value_bytes == *line.disk_offset);
  if (line.field.ends_with("kernel_start")) return;  // (suggests the table's start, not an aligned one)
  FUZZ_CHECK(line.ok == line.misses.empty());
  if (!line.ok) {
    FUZZ_CHECK(line.suggested_bytes && *line.suggested_bytes >= *line.disk_offset);
    FUZZ_CHECK(*line.suggested_bytes % alignment == 0);
  }
}

// What is wrong with the table as a table is named, and what a person must
// decide gets no command (table_audit.h): an entry past the disk's end has
// its range finding, a table is read no further than the cap, a table
// libblkid named but that was not read is a finding, and a withheld fix is
// one step of words.
void check_table_findings(const LayoutAudit& audit) {
  const DiskLayout& layout = audit.layout;
  const AuditLine* unread = line_named(audit, "partition_table.unread");
  FUZZ_CHECK((unread != nullptr) == layout.unread_table.has_value());
  FUZZ_CHECK(!(layout.table && layout.unread_table));
  if (unread) FUZZ_CHECK(!unread->ok && !unread->fix_withheld.empty());
  if (layout.table) {
    FUZZ_CHECK(layout.table->partitions.size() <= kMaxTablePartitions);
    FUZZ_CHECK((line_named(audit, "partition_table.entries") != nullptr) == layout.table->past_cap);
    for (const auto& entry : layout.table->partitions) {
      if (entry.start_bytes + entry.size_bytes <= layout.disk_size_bytes) continue;
      const AuditLine* range = line_named(audit, fmt::format("partition[{}].range", entry.number));
      FUZZ_CHECK(range && !range->ok && range->severity == Severity::error);
    }
  }
  for (const auto& line : audit.lines) {
    if (line.fix_withheld.empty() || line.ok) continue;
    FUZZ_CHECK(line.fix.size() == 1 && line.fix[0].command.empty() && !line.fix[0].moves_data &&
               !line.fix[0].destroys_data);
  }
}

// An image whose start holds no table, md, LVM or filesystem is not a disk
// image but a file, judged by where its extents lie (audit_phase.h); a
// memfd has no FIEMAP, so that audit is "not available" and says why.
bool check_file_without_layout(const ResultDocument& doc, bool disk_image) {
  if (disk_image) return false;
  FUZZ_CHECK(!doc.audit->layout.has_value());
  FUZZ_CHECK(doc.audit->unavailable_category == ErrorCategory::unsupported);
  FUZZ_CHECK(doc.audit->unavailable_reason.find("FIEMAP") != std::string::npos);
  FUZZ_CHECK(!doc.recommendations.verdict.has_value());
  return true;
}

void check_audit(const ResultDocument& doc, const disk_image::Input& in, bool disk_image) {
  FUZZ_CHECK(doc.audit.has_value());
  if (check_file_without_layout(doc, disk_image)) return;
  // The descriptor is a readable regular file (an empty one too) and the
  // logical block a power of two from 512 to 64 KiB: nothing may refuse an
  // image that holds a layout. It is read as the loop device `losetup FILE`
  // makes of it, whose logical block is 512 B whatever the topology says
  // (audit.h).
  FUZZ_CHECK(doc.audit->layout.has_value());
  const LayoutAudit& audit = *doc.audit->layout;
  const DiskLayout& layout = audit.layout;
  FUZZ_CHECK(layout.disk_size_bytes == in.size_bytes && layout.logical_block == 512 && layout.image_file);
  FUZZ_CHECK(audit.units.logical_block == 512 && audit.units.physical_block == 512);
  FUZZ_CHECK(layout.kernel_partitions.empty());  // an image has none
  check_stacks_follow_table(layout);
  for (const auto& stack : layout.stacks) {
    check_stack(stack, layout.disk_size_bytes);
    check_starts_checked(audit, stack);
    for (const auto& note : stack.notes) FUZZ_CHECK(has(audit.notes, note));
  }
  for (const auto& note : layout.notes) FUZZ_CHECK(has(audit.notes, note));
  check_table_findings(audit);
  const uint64_t alignment = wanted_alignment(audit.units);
  size_t not_ok = 0;
  for (const auto& line : audit.lines) {
    check_line(line, alignment);
    not_ok += line.ok ? 0 : 1;
  }
  FUZZ_CHECK(audit.all_ok() == (not_ok == 0));
  // Every finding is a mismatch, with the line's severity.
  FUZZ_CHECK(doc.mismatches.size() == not_ok);
  size_t m = 0;
  for (const auto& line : audit.lines) {
    if (line.ok) continue;
    FUZZ_CHECK(doc.mismatches[m].field == line.field && doc.mismatches[m].severity == line.severity);
    ++m;
  }
  const bool nothing_to_change = !audit.lines.empty() && not_ok == 0;
  FUZZ_CHECK(doc.recommendations.verdict.has_value() == nothing_to_change);
}

// The audit section as write_json writes it (with_valid_utf8, then dump),
// parsed back. (The rest of the document does not depend on the image.)
void check_json(const ResultDocument& doc) {
  const std::string text = with_valid_utf8(audit_json(doc.audit)).dump();
  const auto audit = nlohmann::json::parse(text);  // throws (a finding) if it is not JSON
  FUZZ_CHECK(audit.at("available").get<bool>() == doc.audit->layout.has_value());
  if (!doc.audit->layout) return;
  const LayoutAudit& a = *doc.audit->layout;
  FUZZ_CHECK(audit.at("stacks").size() == a.layout.stacks.size());
  FUZZ_CHECK(audit.at("all_ok").get<bool>() == a.all_ok());
  const auto& checks = audit.at("checks");
  FUZZ_CHECK(checks.size() == a.lines.size());
  for (size_t i = 0; i < checks.size(); ++i) {
    const std::string severity = checks[i].at("severity").get<std::string>();
    FUZZ_CHECK(severity == "info" || severity == "warning" || severity == "error");
    FUZZ_CHECK(checks[i].at("ok").get<bool>() == a.lines[i].ok);
    FUZZ_CHECK(checks[i].at("value_bytes").get<uint64_t>() == a.lines[i].value_bytes);
    if (a.lines[i].disk_offset) FUZZ_CHECK(checks[i].at("disk_offset").get<uint64_t>() == *a.lines[i].disk_offset);
  }
}

void check_text(const ResultDocument& doc) {
  // As `ssdprobe audit` prints it, and the full report of a timed run.
  const std::string audit_text = printable(render_audit_text(doc), true);
  fuzz::keep(render_text(doc));
  for (const char c : audit_text) FUZZ_CHECK(c == '\n' || static_cast<unsigned char>(c) >= 0x20);
  if (!doc.audit->layout) return;
  FUZZ_CHECK(audit_text.find("Audit of ") != std::string::npos);
  for (const auto& line : doc.audit->layout->lines) FUZZ_CHECK(audit_text.find(printable(line.field)) != std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto input = disk_image::parse(fuzz::bytes(data, size));
  if (!input) return 0;
  static const int fd = disk_image::make_memfd("ssdprobe-fuzz-disk-image");
  if (!disk_image::write_image(fd, *input)) return 0;  // (a size the memfd refuses)
  disk_image::repair_checksums(fd, *input);
  const ResultDocument doc = disk_image::audit_image(fd, *input);
  check_audit(doc, *input, disk_image::holds_layout(fd, *input));
  check_json(doc);
  check_text(doc);
  return 0;
}
