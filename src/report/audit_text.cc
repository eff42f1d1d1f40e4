#include <fmt/format.h>

#include "core/plural.h"
#include "core/units.h"
#include "report/audit_render.h"
#include "report/enum_names.h"

namespace ssdprobe {
namespace {

// "a GPT that could not be read (only its protective MBR)".
std::string unread_table_words(const UnreadTable& unread) {
  if (unread.type == "PMBR") return "a GPT that could not be read (only its protective MBR)";
  return fmt::format("a '{}' partition table, not read", unread.type);
}

std::string status_word(const AuditLine& line) { return line.ok ? "OK" : severity_label(line.severity); }

std::string share(double value) { return fmt::format("{:.0f} %", value * 100.0); }

std::string cost_text(const AuditCost& c) {
  const MisalignmentCost& m = c.cost;
  const std::string what = fmt::format("{} {}s", format_size(c.request_bytes), c.op);
  if (!m.determined) return fmt::format("{}: cost not determined ({})", what, m.evidence);
  std::string text;
  if (m.significant) {
    text = fmt::format("{} cost {:.2f}x an aligned start (95 % interval {:.2f}-{:.2f}): {:+.0f} % latency, "
                       "{:+.1f} us each", what, m.ratio, m.ratio_low, m.ratio_high, (m.ratio - 1.0) * 100.0,
                       m.at_start_median_us - m.aligned_median_us);
  } else {
    text = fmt::format("{}: no measurable cost ({:.2f}x, 95 % interval {:.2f}-{:.2f})", what, m.ratio, m.ratio_low,
                       m.ratio_high);
  }
  if (m.crossing_share && m.aligned_crossing_share && *m.crossing_share > *m.aligned_crossing_share) {
    text += fmt::format("; {} of them cross a {} boundary (aligned: {})", share(*m.crossing_share),
                        c.op == "write" ? "write-unit" : "page", share(*m.aligned_crossing_share));
  }
  return text;
}

// The fix under its finding, one numbered step each: the command, then why
// and what it costs ("by hand" steps have no command: a backup, a restore).
void fix_text(std::string& out, const std::vector<FixStep>& fix) {
  for (size_t i = 0; i < fix.size(); ++i) {
    const FixStep& step = fix[i];
    const std::string flags = step.destroys_data ? "; destroys the data" : step.moves_data ? "; moves the data" : "";
    out += fmt::format("           fix {}: {}\n", i + 1, step.command.empty() ? "(by hand)" : step.command);
    out += fmt::format("                  {} [{}{}]\n", step.purpose, step.cost, flags);
  }
}

void line_text(std::string& out, const AuditLine& line) {
  out += fmt::format("  {:<8} {:<28} {}: {}\n", status_word(line), line.field, line.layer, line.message);
  for (const auto& cost : line.costs) out += fmt::format("           cost: {}\n", cost_text(cost));
  fix_text(out, line.fix);
}

std::string checked_against(const AuditUnits& u) {
  std::string text = fmt::format("logical block {}, physical block {}, 4 KiB", format_size(u.logical_block),
                                 format_size(u.physical_block));
  if (u.read_page) text += ", read page " + format_size(*u.read_page);
  if (u.write_unit) text += ", write unit " + format_size(*u.write_unit);
  return text + fmt::format(", 1 MiB (layer starts should be multiples of {})", format_size(wanted_alignment(u)));
}

}  // namespace

void audit_text(std::string& out, const std::optional<AuditSection>& section) {
  if (!section) return;
  if (!section->layout) {
    out += fmt::format("\nAudit: not available: {}\n", section->unavailable_reason);
  } else if (section->files) {
    file_extents_text(out, *section->files);
    for (const auto& line : section->layout->lines) line_text(out, line);
    for (const auto& note : section->layout->notes) out += fmt::format("  note: {}\n", note);
  } else {
    const LayoutAudit& a = *section->layout;
    const DiskLayout& l = a.layout;
    const std::string table = l.table          ? fmt::format("{} partition table, {}", l.table->scheme,
                                                               counted(l.table->partitions.size(), "entry", "entries"))
                              : l.unread_table ? unread_table_words(*l.unread_table)
                                               : "no partition table";
    out += fmt::format("\nAudit of {}: {}; {}\n", l.disk_path, table,
                       counted(l.kernel_partitions.size(), "kernel partition"));
    out += fmt::format("  checked against {}\n", checked_against(a.units));
    if (a.lines.empty()) out += "  nothing on the disk to check (no partitions, volumes or filesystems found)\n";
    for (const auto& line : a.lines) line_text(out, line);
    out += a.all_ok() ? "  every layer is aligned: nothing to change\n" : "";
    for (const auto& note : a.notes) out += fmt::format("  note: {}\n", note);
  }
  if (!section->at.empty()) out += "Starts asked about (--at):\n";
  for (const auto& line : section->at) line_text(out, line);
}

}  // namespace ssdprobe
