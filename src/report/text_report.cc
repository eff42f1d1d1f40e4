#include "report/text_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "core/units.h"
#include "report/audit_render.h"
#include "report/enum_names.h"
#include "report/firmware_json.h"
#include "ssdprobe_version.h"

namespace ssdprobe {
namespace {

std::string size_or_dash(const std::optional<uint64_t>& value) {
  if (!value) return "-";
  return *value == 0 ? "0" : format_size(*value);
}

std::string detected_cell(const DetectedUnit& unit) {
  if (unit.bytes) return fmt::format("{} (confidence {:.2f})", format_size(*unit.bytes), unit.confidence);
  if (unit.state == UnitState::not_measured) return "not measured";
  if (unit.state == UnitState::absent) {
    return unit.searched_up_to_bytes ? fmt::format("none up to {}", format_size(*unit.searched_up_to_bytes))
                                     : "none found";
  }
  return "not determined";
}

void identity(std::string& out, const ResultDocument& d) {
  const Topology& t = d.topology;
  out += fmt::format("ssdprobe {}: {} ({}, {})\n", SSDPROBE_VERSION, d.path, target_kind_name(d.kind), t.transport);
  if (!t.model.empty() || !t.serial.empty()) {
    out += fmt::format("  model {}  serial {}  firmware {}\n", t.model.empty() ? "-" : t.model,
                       t.serial.empty() ? "-" : t.serial, t.firmware.empty() ? "-" : t.firmware);
  }
  out += fmt::format("  size {}, logical block {}, kernel {}\n", format_size(t.size_bytes),
                     size_or_dash(t.logical_block_size), t.kernel_version.empty() ? "?" : t.kernel_version);
  if (!t.partition_name.empty()) out += fmt::format("  partition {} starts at byte {}\n", t.partition_name, t.partition_start_bytes);
  if (!t.backing_file.empty()) out += fmt::format("  backing file {}\n", t.backing_file);
}

// One column of the side-by-side table: a source of reported geometry and
// its value per sysfs field name ("-" where that source says nothing).
struct SourceColumn {
  std::string title;
  std::function<std::string(const std::string& field)> value;
};

// An expected sysfs value: yes/no for rotational, else a size (0 and the
// odd negative value as numbers).
std::string expected_cell(const std::optional<int64_t>& value, const std::string& field) {
  if (!value) return "-";
  const int64_t n = *value;
  if (field == "rotational") return n ? "yes" : "no";
  return n <= 0 ? fmt::format("{}", n) : format_size(static_cast<uint64_t>(n));
}

std::string expectation_cell(const SysfsExpectation& expectation, const std::string& field) {
  for (const auto& expected : expectation.fields) {
    if (expected.name == field) return expected_cell(expected.value, field);
  }
  return "-";
}

// smartctl's own view: its block sizes, and rotation rate 0 as "not rotational".
std::string smartctl_cell(const SmartctlReport& smart, const std::string& field) {
  if (field == "logical_block_size") return size_or_dash(smart.logical_block_size);
  if (field == "physical_block_size") return size_or_dash(smart.physical_block_size);
  if (field == "rotational" && smart.rotation_rate) return *smart.rotation_rate == 0 ? "no" : "yes";
  return "-";
}

std::string sysfs_cell(const Topology& t, const std::string& field) {
  if (field == "logical_block_size") return size_or_dash(t.logical_block_size);
  if (field == "physical_block_size") return size_or_dash(t.physical_block_size);
  if (field == "minimum_io_size") return size_or_dash(t.minimum_io_size);
  if (field == "optimal_io_size") return size_or_dash(t.optimal_io_size);
  if (field == "discard_granularity") return size_or_dash(t.discard_granularity);
  if (field == "alignment_offset") return t.alignment_offset ? fmt::format("{}", *t.alignment_offset) : "-";
  if (field == "rotational") return t.rotational ? (*t.rotational ? "yes" : "no") : "-";
  return "-";
}

// sysfs first, then what each firmware source says sysfs should show
// (reported.expectations), then smartctl's own view.
std::vector<SourceColumn> source_columns(const ResultDocument& d) {
  std::vector<SourceColumn> columns;
  columns.push_back({"sysfs", [&d](const std::string& f) { return sysfs_cell(d.topology, f); }});
  for (const auto& expectation : d.firmware.expectations) {
    columns.push_back(
        {expectation.source, [&expectation](const std::string& f) { return expectation_cell(expectation, f); }});
  }
  if (d.firmware.smart && d.firmware.smart->has_data) {
    const SmartctlReport& smart = *d.firmware.smart;
    columns.push_back({"smartctl", [&smart](const std::string& f) { return smartctl_cell(smart, f); }});
  }
  return columns;
}

void side_by_side(std::string& out, const ResultDocument& d) {
  const std::vector<SourceColumn> columns = source_columns(d);
  std::vector<size_t> widths;
  for (const auto& c : columns) widths.push_back(std::max<size_t>(12, c.title.size() + 2));
  auto row = [&](const std::string& name, const std::vector<std::string>& cells, const std::string& detected) {
    std::string line = fmt::format("  {:<22}", name);
    for (size_t i = 0; i < cells.size(); ++i) line += fmt::format("{:<{}}", cells[i], widths[i]);
    out += line + detected;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  };
  std::vector<std::string> titles, dashes(columns.size(), "-");
  for (const auto& c : columns) titles.push_back(c.title);
  out += "\n";
  row("", titles, "detected");
  row("read page", dashes, detected_cell(d.read_page));
  row("write unit", dashes, detected_cell(d.write_unit));
  row("erase block", dashes, detected_cell(d.erase_block));
  for (const char* field : {"logical_block_size", "physical_block_size", "minimum_io_size", "optimal_io_size",
                            "discard_granularity", "alignment_offset", "rotational"}) {
    std::vector<std::string> cells;
    for (const auto& c : columns) cells.push_back(c.value(field));
    row(field, cells, "");
  }
}

// The scalar fields of a firmware section as the JSON document names and
// writes them (rendered by firmware_json.h, so the two never disagree), "name
// value" wrapped at ~100 columns; nested objects and lists (LBA formats, SMART
// details) are left to the JSON document.
void firmware_fields(std::string& out, const char* title, const nlohmann::ordered_json& section) {
  out += fmt::format("  {}:", title);
  size_t column = 4 + std::string(title).size();
  for (const auto& [key, value] : section.items()) {
    if (value.is_structured() || value.is_null()) continue;
    const std::string item = fmt::format(" {} {}", key, value.is_string() ? value.get<std::string>() : value.dump());
    if (column + item.size() > 100) {
      out += "\n   ";
      column = 3;
    }
    out += item;
    column += item.size();
  }
  out += "\n";
}

void firmware(std::string& out, const ResultDocument& d) {
  const FirmwareSection& f = d.firmware;
  if (!f.nvme && !f.ata && !f.scsi && !f.smart) return;
  out += "\nFirmware reports\n";
  if (f.nvme) firmware_fields(out, "NVMe", nvme_reported_json(*f.nvme));
  if (f.ata) firmware_fields(out, "ATA IDENTIFY", ata_reported_json(*f.ata));
  if (f.scsi) firmware_fields(out, "SCSI", scsi_reported_json(*f.scsi));
  if (f.smart) firmware_fields(out, "smartctl", smartctl_summary_json(*f.smart));
}

void evidence(std::string& out, const ResultDocument& d) {
  out += "\nEvidence\n";
  out += fmt::format("  read page: {}\n", d.read_page.evidence);
  if (!d.write_unit.evidence.empty()) out += fmt::format("  write unit: {}\n", d.write_unit.evidence);
  if (!d.erase_block.evidence.empty()) out += fmt::format("  erase block: {}\n", d.erase_block.evidence);
}

// The audit's own findings are mismatches too (for readers of the JSON), but
// the text report has already shown them in the Audit block.
bool shown_in_audit(const ResultDocument& d, const Mismatch& m) {
  if (!d.audit || !d.audit->layout) return false;
  for (const auto& line : d.audit->layout->lines) {
    if (!line.ok && line.field == m.field) return true;
  }
  return false;
}

void mismatches(std::string& out, const ResultDocument& d) {
  out += "\nMismatches\n";
  size_t shown = 0;
  for (const auto& m : d.mismatches) {
    if (shown_in_audit(d, m)) continue;
    out += fmt::format("  {:<8} {}: {}\n", severity_name(m.severity), m.field, m.message);
    ++shown;
  }
  if (shown == 0) out += d.mismatches.empty() ? "  none found\n" : "  none besides the audit's\n";
}

void recommendation(std::string& out, const ResultDocument& d) {
  const Recommendations& r = d.recommendations;
  out += "\nRecommendation\n";
  if (r.verdict) {
    out += fmt::format("  {}\n  (to rebuild the disk from scratch instead:)\n", *r.verdict);
  }
  out += fmt::format("  start partitions at byte {} ({}), aligned to {}\n", r.partition_start_bytes,
                     format_size(r.partition_start_bytes), format_size(r.partition_alignment_bytes));
  for (const auto& note : r.notes) out += fmt::format("  - {}\n", note);
  for (const auto& step : r.steps) {
    out += fmt::format("  {:<10} {}\n", step.key, step.command);
    if (step.destroys_data) out += fmt::format("  {:<10} warning: {}\n", "", step.warning);
  }
}

void run_summary(std::string& out, const ResultDocument& d) {
  for (const auto& note : d.notes) out += fmt::format("\nnote: {}", note);
  if (!d.notes.empty()) out += "\n";
  if (!d.run) {
    out += "\nNo timing IO was done (info).\n";
    return;
  }
  out += fmt::format("\nRun: {} timed IOs, {:.2f} s of device time, {:.2f} s wall; read grid: {} rounds ({}); engine {}\n",
                     d.run->ios, d.run->device_time_s, d.duration_s, d.run->rounds, stop_reason_name(d.run->stop_reason), d.run->engine);
  if (d.write_probe) {
    const WriteProbeSummary& w = *d.write_probe;
    out += fmt::format("Writes: {} bytes inside {}+{}; {}\n", w.bytes_written, w.offset, w.length,
                       !w.preserved ? "content not preserved (--no-preserve or simulated drive)"
                                    : (w.restored ? w.restore_message : "NOT restored"));
  }
}

}  // namespace

std::string render_text(const ResultDocument& d) {
  std::string out;
  identity(out, d);
  side_by_side(out, d);
  firmware(out, d);
  evidence(out, d);
  audit_text(out, d.audit);
  mismatches(out, d);
  recommendation(out, d);
  run_summary(out, d);
  return out;
}

std::string render_audit_text(const ResultDocument& d) {
  std::string out;
  identity(out, d);
  audit_text(out, d.audit);
  for (const auto& note : d.notes) out += fmt::format("note: {}\n", note);
  return out;
}

}  // namespace ssdprobe
