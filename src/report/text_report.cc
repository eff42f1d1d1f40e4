#include "report/text_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <utility>

#include "core/plural.h"
#include "core/units.h"
#include "device/completion_spin.h"  // kMaxInFlight, named where the engine slept
#include "firmware/nvme_format_advice.h"
#include "report/audit_render.h"
#include "report/open_units_render.h"
#include "report/parallelism_render.h"
#include "report/run_context_text.h"
#include "report/enum_names.h"
#include "report/firmware_json.h"
#include "report/text_wrap.h"
#include "report/zoned_write_render.h"
#include "report/unit_answer.h"
#include "report/verdict_render.h"
#include "ssdprobe_version.h"

namespace ssdprobe {
namespace {

std::string size_or_dash(const std::optional<uint64_t>& value) {
  if (!value) return "-";
  return *value == 0 ? "0" : format_size(*value);
}

// The confidence named as README and docs/result-json.md define it: for the
// read page and the write unit the bootstrap support (k + 0.5) / (200 + 1),
// for the erase block one minus the corrected p-value of its period. Three
// decimals, as the JSON rounds it.
std::string confidence_text(const DetectedUnit& unit, bool erase_block) {
  return fmt::format("confidence {:.3f}, {}", unit.confidence,
                     erase_block ? "1 - corrected p-value" : "bootstrap support");
}

std::string detected_cell(const char* what, const DetectedUnit& unit, bool erase_block = false) {
  if (unit.bytes) {
    return fmt::format("{} {} ({})", what, format_size(*unit.bytes), confidence_text(unit, erase_block));
  }
  return fmt::format("{}: {}", what,
                     unit_answer_text(unit_answer(unit.state), unit.bytes, unit.searched_up_to_bytes));
}

// The detected unit the kernel's minimum_io_size should name: the write unit
// (what partial writes pay for), or the read page while no write unit was found.
std::string minimum_io_cell(const ResultDocument& d) {
  if (d.write_unit.bytes || !d.read_page.bytes) return detected_cell("write unit", d.write_unit);
  return fmt::format("read page {} (write unit {})", format_size(*d.read_page.bytes),
                     unit_answer_text(unit_answer(d.write_unit.state), {}, d.write_unit.searched_up_to_bytes));
}

// The phase that stopped the run (interrupted, or failed with later phases
// not run), or null when every phase had its turn.
const PhaseRecord* stopping_phase(const ResultDocument& d) {
  const PhaseRecord* last_failure = nullptr;
  for (const auto& p : d.phases) {
    if (p.state == PhaseState::interrupted) return &p;
    if (p.state == PhaseState::failed) last_failure = &p;
    if (p.state == PhaseState::not_run) return last_failure != nullptr ? last_failure : &p;
  }
  return nullptr;
}

// First, before the verdict, when the run did not finish: what stopped it,
// and that everything below comes from the phases that finished.
std::string stopped_text(const ResultDocument& d) {
  const PhaseRecord* stop = stopping_phase(d);
  if (stop == nullptr) return "";
  std::vector<std::string> finished, not_run;
  for (const auto& p : d.phases) {
    if (p.state == PhaseState::done || p.state == PhaseState::budget) finished.push_back(p.name);
    if (p.state == PhaseState::not_run) not_run.push_back(p.name);
  }
  return fmt::format("Run stopped in the {} phase ({}): what follows is what the finished phases measured ({}); not "
                     "run: {}", stop->name, stop->reason, finished.empty() ? "none" : fmt::format("{}", fmt::join(finished, ", ")),
                     not_run.empty() ? "none" : fmt::format("{}", fmt::join(not_run, ", ")));
}

// Phases that failed, were interrupted or did not run, with why; nothing
// for a run where every phase finished or did not apply.
void unfinished_phases(std::string& out, const ResultDocument& d, size_t width) {
  for (const auto& p : d.phases) {
    if (p.state != PhaseState::failed && p.state != PhaseState::interrupted && p.state != PhaseState::not_run) continue;
    out += wrapped("Phase ", fmt::format("{}: {}: {}", p.name, phase_state_name(p.state), p.reason), width, 6);
  }
}

void identity(std::string& out, const ResultDocument& d, size_t width) {
  const Topology& t = d.topology;
  const std::string via = t.scsi_host_driver.empty() ? "" : " via " + t.scsi_host_driver;
  out += fmt::format("ssdprobe {}: {} ({}, {}{})\n", SSDPROBE_VERSION, d.path, target_kind_name(d.kind), t.transport,
                     via);
  if (!t.model.empty() || !t.serial.empty()) {
    out += fmt::format("  model {}  serial {}  firmware {}\n", t.model.empty() ? "-" : t.model,
                       t.serial.empty() ? "-" : t.serial, t.firmware.empty() ? "-" : t.firmware);
  }
  out += fmt::format("  size {}, logical block {}, kernel {}\n", format_size(t.size_bytes),
                     size_or_dash(t.logical_block_size), t.kernel_version.empty() ? "?" : t.kernel_version);
  if (!t.partition_name.empty()) {
    out += fmt::format("  partition {} starts at {}\n", t.partition_name, format_exact_size(t.partition_start_bytes));
  }
  if (!t.backing_file.empty()) out += fmt::format("  backing file {}\n", t.backing_file);
  host_and_command_lines(out, d, width);
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
  std::vector<std::string> titles;
  for (const auto& c : columns) titles.push_back(c.title);
  // Each reported field beside the unit it should describe: the physical
  // block is the read page, the minimum IO the write unit, the optimal IO
  // the erase block.
  const std::vector<std::pair<const char*, std::string>> rows{
      {"logical_block_size", ""},
      {"physical_block_size", detected_cell("read page", d.read_page)},
      {"minimum_io_size", minimum_io_cell(d)},
      {"optimal_io_size", detected_cell("erase block", d.erase_block, true)},
      {"discard_granularity", ""},
      {"alignment_offset", ""},
      {"rotational", ""},
  };
  out += "\n";
  row("", titles, "detected");
  for (const auto& [field, detected] : rows) {
    std::vector<std::string> cells;
    for (const auto& c : columns) cells.push_back(c.value(field));
    row(field, cells, detected);
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

// The NVMe pages beyond Identify that have their own sub-objects: the OCP
// C0h page, the Endurance Group Information log, the directives and FDP,
// each part under its spec name.
void nvme_log_fields(std::string& out, const nlohmann::ordered_json& nvme) {
  if (nvme["ocp"].is_object()) firmware_fields(out, "OCP SMART / Health Information Extended (C0h)", nvme["ocp"]);
  if (nvme["endurance_group"].is_object())
    firmware_fields(out, "Endurance Group Information (09h; units of 1,000,000,000 B)", nvme["endurance_group"]);
  if (nvme["directives"].is_object()) {
    firmware_fields(out, "Directives (Directive Receive, Identify)", nvme["directives"]);
    if (nvme["directives"]["streams"].is_object())
      firmware_fields(out, "Streams directive (Return Parameters)", nvme["directives"]["streams"]);
  }
  const auto& fdp = nvme["fdp"];
  if (!fdp.is_object()) return;
  firmware_fields(out, "Flexible Data Placement (Get Features 1Dh)", fdp);
  const std::pair<const char*, const char*> parts[] = {
      {"configuration_in_use", "FDP Configuration in use (20h)"}, {"configurations", "FDP Configurations (20h)"},
      {"ruh_usage", "Reclaim Unit Handle Usage (21h)"},         {"statistics", "FDP Statistics (22h)"},
      {"host_events", "FDP Events, host (23h)"},                {"controller_events", "FDP Events, controller (23h)"}};
  for (const auto& [key, title] : parts) {
    if (fdp[key].is_object()) firmware_fields(out, title, fdp[key]);
  }
}

// The unit serial, then each SCSI page that was read on lines of its own.
void scsi_fields(std::string& out, const nlohmann::ordered_json& scsi) {
  firmware_fields(out, "SCSI", scsi);
  for (const auto& [key, title] : {std::pair{"inquiry", "SCSI INQUIRY"},
                                   std::pair{"read_capacity16", "SCSI READ CAPACITY(16)"},
                                   std::pair{"block_limits", "SCSI Block Limits VPD"}}) {
    if (scsi[key].is_object()) firmware_fields(out, title, scsi[key]);
  }
}

// The card's sysfs values, then each decoded register on lines of its own.
void mmc_fields(std::string& out, const nlohmann::ordered_json& mmc) {
  firmware_fields(out, "MMC card", mmc);
  for (const auto& [key, title] : {std::pair{"csd", "CSD"}, std::pair{"scr", "SCR"}, std::pair{"cid", "CID"}}) {
    if (mmc[key].is_object()) firmware_fields(out, title, mmc[key]);
  }
}

void firmware(std::string& out, const ResultDocument& d) {
  const FirmwareSection& f = d.firmware;
  const bool zoned = d.topology.zoned && d.topology.zoned->zoned();  // a file on one is zoned too
  if (!f.nvme && !f.ata && !f.scsi && !f.smart && !f.mmc && !zoned) return;
  out += "\nFirmware reports\n";
  if (zoned) {
    const auto section = zoned_reported_json(*d.topology.zoned, f.zones);
    firmware_fields(out, "Zoned (sysfs)", section);
    if (f.zones) firmware_fields(out, "Zone report", section["report"]);
  }
  if (f.nvme) {
    const auto nvme = nvme_reported_json(*f.nvme);
    firmware_fields(out, "NVMe", nvme);
    nvme_log_fields(out, nvme);
  }
  if (f.nvme && (f.nvme->zns_ns || f.nvme->zns_ctrl)) firmware_fields(out, "NVMe ZNS", nvme_zns_json(*f.nvme));
  if (f.ata) firmware_fields(out, "ATA IDENTIFY", ata_reported_json(*f.ata));
  if (f.scsi) scsi_fields(out, scsi_reported_json(*f.scsi));
  if (f.smart) firmware_fields(out, "smartctl", smartctl_summary_json(*f.smart));
  if (f.mmc) mmc_fields(out, mmc_reported_json(*f.mmc));
}

void evidence(std::string& out, const ResultDocument& d, size_t width) {
  out += "\nEvidence\n";
  if (!d.read_page.device_state.empty()) {
    out += wrapped("  read page: ", "measured on freshly written space (grid read-written): " + d.read_page.device_state,
                   width, 4);
    out += wrapped("    ", d.read_page.evidence, width, 4);
  } else {
    out += wrapped("  read page: ", d.read_page.evidence, width, 4);
  }
  if (!d.write_unit.evidence.empty()) out += wrapped("  write unit: ", d.write_unit.evidence, width, 4);
  // Only where the write grid ran: a stripe is told beside a measured write unit.
  if (d.write_stripe.state != UnitState::not_measured) {
    out += wrapped("  write stripe: ", d.write_stripe.evidence, width, 4);
  }
  if (!d.erase_block.evidence.empty()) out += wrapped("  erase block: ", d.erase_block.evidence, width, 4);
  if (d.erase_block.state == UnitState::absent && !d.erase_block.to_determine.empty()) {
    out += wrapped("    ", d.erase_block.to_determine, width, 4);
  }
  if (!d.slc_cache.evidence.empty()) out += wrapped("  SLC cache: ", d.slc_cache.evidence, width, 4);
  if (d.slc_cache_detail && d.slc_cache_detail->recovery) {
    out += wrapped("    recovery: ", d.slc_cache_detail->recovery->evidence, width, 4);
  }
  if (d.slc_cache_detail && d.slc_cache_detail->write_unit) {
    out += wrapped("    write unit inside the cache: ", d.slc_cache_detail->write_unit->evidence, width, 4);
  }
  // Only a --write run tells how many streams it measured or why not.
  if (d.write_probe) open_units_text(out, d.open_units, width);
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

void mismatches(std::string& out, const ResultDocument& d, size_t width) {
  out += "\nMismatches\n";
  size_t shown = 0;
  for (const auto& m : d.mismatches) {
    if (shown_in_audit(d, m)) continue;
    out += wrapped(fmt::format("  {:<8} {}: ", severity_name(m.severity), m.field), m.message, width, 11);
    ++shown;
  }
  if (shown == 0) out += d.mismatches.empty() ? "  none found\n" : "  none besides the audit's\n";
}

// Whether the audit found anything on the disk (a table, a volume, a
// filesystem): then the commands for a new disk are a rebuild, and say so.
bool holds_data(const ResultDocument& d) {
  if (!d.audit || !d.audit->layout) return d.kind == TargetKind::block || d.kind == TargetKind::partition;
  const LayoutAudit& a = *d.audit->layout;
  return a.layout.table.has_value() || !a.lines.empty();
}

// A better LBA format the drive lists (analysis/lba_format_advice.h), before
// anything is built on the namespace: the format erases it.
void lba_format_advice_text(std::string& out, const ResultDocument& d, size_t width) {
  const auto advice = nvme_lba_format_advice(d.firmware.nvme, d.kind, d.path, d.topology.disk_name);
  if (!advice) return;
  const bool every_namespace = advice->all_namespaces.value_or(false);
  out += wrapped("  ", fmt::format("To use the LBA format the drive rates best, reformat the namespace first (this "
                                   "destroys everything on {}):",
                                   every_namespace ? "every namespace of the drive" : "it"),
                 width, 2);
  out += wrapped("  - ", advice->why, width, 4);
  out += wrapped("  - ", advice->step.purpose, width, 4);
  out += "     " + advice->step.command + "\n";
  out += wrapped("     warning: ", advice->step.warning, width, 14);
}

// The steps in the order they would be run, numbered; steps sharing an
// alternative group are one step ("run one of"). Commands are never folded:
// they must paste as they are.
void recommendation(std::string& out, const ResultDocument& d, size_t width) {
  const Recommendations& r = d.recommendations;
  out += "\nRecommendation\n";
  if (!d.run) {
    out += wrapped("  ", "defaults, not measurements: info times no IO; run `ssdprobe TARGET` to check them against "
                   "the drive", width, 2);
  }
  if (r.verdict) out += wrapped("  ", *r.verdict, width, 2);
  if (!d.verdict.findings.empty()) {
    out += wrapped("  ", "first fix what is on the disk: each finding in the audit above comes with its least "
                   "destructive fix", width, 2);
  }
  lba_format_advice_text(out, d, width);
  out += holds_data(d) ? "  To rebuild the disk from scratch instead (this destroys everything on it):\n"
                       : "  For a new or empty disk:\n";
  if (d.zoned_block_device()) {
    out += "  no partitions: a zoned filesystem on the whole device\n";
  } else {
    out += fmt::format("  start partitions at {}, aligned to {}\n", format_exact_size(r.partition_start_bytes),
                       format_size(r.partition_alignment_bytes));
  }
  for (const auto& note : r.notes) out += wrapped("  - ", note, width, 4);
  int number = 0;
  for (size_t first = 0; first < r.steps.size();) {
    size_t end = first + 1;
    const std::string& group = r.steps[first].alternative_group;
    bool same_purpose = true;
    while (!group.empty() && end < r.steps.size() && r.steps[end].alternative_group == group) {
      same_purpose = same_purpose && r.steps[end].purpose == r.steps[first].purpose;
      ++end;
    }
    std::string heading = r.steps[first].purpose.empty() ? r.steps[first].key : r.steps[first].purpose;
    if (end - first > 1) {
      heading = same_purpose ? heading + " (run one of these)" : fmt::format("{} (run one of these)", group);
    }
    out += wrapped(fmt::format("  {}. ", ++number), heading, width, 5);
    for (size_t i = first; i < end; ++i) {
      const RecommendedCommand& step = r.steps[i];
      out += fmt::format("     {:<10} {}\n", step.key, step.command);
      if (step.destroys_data) out += wrapped(fmt::format("     {:<10} warning: ", ""), step.warning, width, 16);
    }
    first = end;
  }
}

// A phase without a ratio: what each counter said, and why there is none.
std::string write_counts_without_ratio(const WritePhaseCounts& phase, const WriteAmplification& a) {
  const auto bytes = [](const std::optional<uint64_t>& b) { return b ? format_size(*b) : std::string("not counted"); };
  std::string why = "no NAND-side counter";
  if (phase.nand_bytes_written && phase.nand_step_bytes > 1)
    why = fmt::format("too few steps of {} B to give a ratio", phase.nand_step_bytes);
  else if (phase.nand_bytes_written) why = "the host counter did not move";
  return fmt::format("the {}: {} issued, {} written by the host, {} to the media ({}; from the {}{}{})", phase.pattern,
                     format_size(phase.bytes_issued), bytes(phase.host_bytes_written),
                     bytes(phase.nand_bytes_written), why, a.host_source, a.nand_source.empty() ? "" : " and ",
                     a.nand_source);
}

// Each write phase whose counters both moved: the ratio and the counters it
// came from (FDP statistics or SMART/OCP/LID 09h), so a reader sees whose
// bytes; the others with the bytes each counter saw.
void write_amplification_lines(std::string& out, const WriteAmplification& a, size_t width) {
  for (const WritePhaseCounts* phase : {&a.slc_cache, &a.write_grid, &a.stream}) {
    if (phase->pattern.empty()) continue;  // a phase whose counts were not taken
    if (!phase->write_amplification) {
      out += wrapped("Write counters: ", write_counts_without_ratio(*phase, a), width, 8);
      continue;
    }
    std::string erased;
    if (phase->media_bytes_erased) erased = fmt::format(", {} erased", format_size(*phase->media_bytes_erased));
    out += wrapped("Write amplification: ",
                   fmt::format("{:.2f} for the {} ({} written by the host, {} to the media{}; from the {} and {})",
                               *phase->write_amplification, phase->pattern, format_size(*phase->host_bytes_written),
                               format_size(*phase->nand_bytes_written), erased, a.host_source, a.nand_source),
                   width, 8);
  }
}

// What a sleep's reason means, after its count: "with the CPUs busy".
std::string sleep_reason_phrase(SleepReason reason) {
  switch (reason) {
    case SleepReason::spin_off: return "with polling off";
    case SleepReason::deep_queue: return fmt::format("with more than {} out", CompletionSpin::kMaxInFlight);
    case SleepReason::slow_device: return "on a slow device";
    case SleepReason::cpus_busy: return "with the CPUs busy";
    case SleepReason::timed_out: return "after polling in vain";
  }
  return "";
}

// " (25 with more than 8 out, 5 with the CPUs busy)": why the engine slept
// where it did, the reasons that occurred, largest first; empty when it
// never slept.
std::string sleep_reasons_text(const WaitCounts& waits) {
  std::vector<std::pair<uint64_t, std::string>> parts;
  for (const SleepReason reason : kSleepReasons) {
    const uint64_t n = waits.slept_for(reason);
    if (n > 0) parts.emplace_back(n, fmt::format("{} {}", n, sleep_reason_phrase(reason)));
  }
  if (parts.empty()) return "";
  std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  for (const auto& [n, part] : parts) text += (text.empty() ? "" : ", ") + part;
  return " (" + text + ")";
}

// "; completions polled (24824 polled, 30 asleep (30 after polling in vain),
// 12 already there)": how
// the engine waited, so its latencies are read knowing whether the
// process's own wake-up was in them; empty for engines that do not poll.
std::string waits_text(const std::vector<PhaseRecord>& phases) {
  const std::optional<WaitCounts> all = total_waits(phases);
  const char* waited = all ? waited_name(*all) : nullptr;
  if (!waited) return "";
  const std::string how = std::string_view(waited) == "mixed" ? "completions partly polled, partly waited for asleep"
                          : std::string_view(waited) == "polled" ? "completions polled"
                                                                  : "completions waited for asleep";
  return fmt::format("; {} ({} polled, {} asleep{}, {} already there)", how, all->polled, all->slept(),
                     sleep_reasons_text(*all), all->ready);
}

// What the write probes wrote and whether it was put back. A run stopped
// before its first write restored nothing because nothing needed it, not
// because a restore failed.
std::string writes_text(const WriteProbeSummary& w) {
  const std::string window = format_byte_range(w.offset, w.length);
  if (w.nothing_written) return fmt::format("nothing was written, nothing to restore (the window: {})", window);
  return fmt::format("{} written inside {}; {}", format_size(w.bytes_written), window,
                     !w.preserved ? "content not preserved (--no-preserve or simulated drive)"
                                  : (w.restored ? w.restore_message : "NOT restored"));
}

// "slc_cache 1.2 GiB, write_grid 48 MiB (the drive counted 48.8 MiB from
// the host, 52 MiB to the media: 1.07), ...; 2.1 GiB in all, of the 18.3 GiB
// the question announced": what each write phase wrote, counted also when
// it stopped part way.
std::string per_phase_writes_text(const std::vector<PhaseRecord>& phases, uint64_t announced) {
  std::vector<std::string> parts;
  uint64_t total = 0;
  for (const PhaseRecord& p : phases) {
    if (!p.writes || p.writes->bytes_issued == 0) continue;
    const WritePhaseCounts& w = *p.writes;
    total += w.bytes_issued;
    std::string counted;
    if (w.host_bytes_written) {
      counted = fmt::format(" (the drive counted {} from the host", format_size(*w.host_bytes_written));
      if (w.nand_bytes_written) counted += fmt::format(", {} to the media", format_size(*w.nand_bytes_written));
      if (w.write_amplification) counted += fmt::format(": {:.2f}", *w.write_amplification);
      counted += ")";
    }
    parts.push_back(fmt::format("{} {}{}", p.name, format_size(w.bytes_issued), counted));
  }
  if (parts.empty()) return "";
  return fmt::format("{}; {} in all, of the {} the question announced", fmt::join(parts, ", "), format_size(total),
                     format_size(announced));
}

// "; a first look named 16 KiB after 126 reads of 1 KiB", when the read
// grid's first look settled on a page (probes/grid_probe.h); else nothing.
std::string first_look_text(const ResultDocument& d) {
  for (const GridReport& grid : d.grids) {
    if (grid.name != "read" || !grid.first_look.unit) continue;
    return fmt::format("; a first look named {} after {} reads of {}", format_size(*grid.first_look.unit),
                       grid.first_look.ios, format_size(grid.first_look.request_bytes));
  }
  return "";
}

void run_summary(std::string& out, const ResultDocument& d, size_t width) {
  if (!d.notes.empty()) out += "\n";
  for (const auto& note : d.notes) out += wrapped("note: ", note, width, 6);
  if (!d.run) {
    out += "\nNo timing IO was done (info).\n";
    return;
  }
  out += "\n" + wrapped("Run: ", fmt::format("{}, {:.2f} s of device time, {:.2f} s wall; read grid: {} ({}{}); engine {}",
                                             counted(d.run->ios, "timed IO"), d.run->device_time_s, d.duration_s,
                                             counted(d.run->rounds, "round"), stop_reason_name(d.run->stop_reason),
                                             first_look_text(d), d.run->engine) + waits_text(d.phases),
                          width, 5);
  if (d.write_probe) {
    const WriteProbeSummary& w = *d.write_probe;
    out += wrapped("Writes: ", writes_text(w), width, 8);
    if (const std::string phases = per_phase_writes_text(d.phases, w.announced_bytes); !phases.empty()) {
      out += wrapped("Written by phase: ", phases, width, 8);
    }
    if (w.write_amplification) write_amplification_lines(out, *w.write_amplification, width);
  }
  other_io_lines(out, d, width);
}

}  // namespace

std::string render_text(const ResultDocument& d, size_t width) {
  // The first line is verdict.summary exactly (`jq -r .verdict.summary`).
  std::string out;
  verdict_text(out, d.verdict, width);
  const std::string stopped = stopped_text(d);
  if (!stopped.empty()) out += wrapped("", stopped, width, 2);
  out += "\n";
  identity(out, d, width);
  side_by_side(out, d);
  firmware(out, d);
  evidence(out, d, width);
  parallelism_text(out, d.parallelism, width);
  parallelism_text(out, d.write_parallelism, width);
  zoned_write_text(out, d.zoned_write, width);
  audit_text(out, d.audit);
  mismatches(out, d, width);
  recommendation(out, d, width);
  run_summary(out, d, width);
  unfinished_phases(out, d, width);
  return out;
}

std::string render_text(const ResultDocument& d) { return render_text(d, kDefaultTextWidth); }

std::string render_audit_text(const ResultDocument& d, size_t width) {
  std::string out;
  verdict_text(out, d.verdict, width);
  out += "\n";
  identity(out, d, width);
  audit_text(out, d.audit);
  for (const auto& note : d.notes) out += wrapped("note: ", note, width, 6);
  return out;
}

std::string render_audit_text(const ResultDocument& d) { return render_audit_text(d, kDefaultTextWidth); }

}  // namespace ssdprobe
