#include "run/firmware_phase.h"

#include "firmware/firmware_query.h"
#include "firmware/mmc_findings.h"
#include "firmware/nvme_streams_findings.h"
#include "run/open_units_phase.h"

namespace ssdprobe {

namespace {

std::optional<uint64_t> found_bytes(const DetectedUnit& unit) {
  return unit.state == UnitState::found ? unit.bytes : std::nullopt;
}

// The Streams directive's SWS and SGS beside the units found.
void add_streams_comparison(ResultDocument& doc, const NvmeFirmwareData& nvme) {
  const auto lba = nvme.sizes().lba_bytes;
  if (!nvme.directives || !nvme.directives->streams || !lba) return;
  auto c = compare_streams(*nvme.directives->streams, *lba, found_bytes(doc.write_unit), found_bytes(doc.erase_block));
  for (auto& m : c.mismatches) doc.mismatches.push_back(std::move(m));
  for (auto& n : c.notes) doc.notes.push_back(std::move(n));
}

}  // namespace

void add_firmware_section(ResultDocument& doc, std::optional<uint64_t> measured_unit) {
  const FirmwareReport fw = query_firmware(doc.path, doc.topology, measured_unit);
  doc.firmware.nvme = fw.nvme;
  doc.firmware.ata = fw.ata;
  doc.firmware.scsi = fw.scsi;
  doc.firmware.smart = fw.smart;
  doc.firmware.zones = fw.zones;
  doc.firmware.mmc = fw.mmc;
  if (fw.mmc) {
    for (auto& m : mmc_erase_findings(*fw.mmc, doc.erase_block.bytes)) doc.mismatches.push_back(std::move(m));
  }
  if (fw.nvme) add_streams_comparison(doc, *fw.nvme);
  compare_open_units_with_firmware(doc);
  doc.firmware.identity_source = fw.identity_source;
  doc.firmware.expectations = fw.expectations;
  // Firmware strings are complete where sysfs truncates (ATA model: 16 chars).
  if (!fw.model.empty()) doc.topology.model = fw.model;
  if (!fw.serial.empty()) doc.topology.serial = fw.serial;
  if (!fw.firmware.empty()) doc.topology.firmware = fw.firmware;
  doc.mismatches.insert(doc.mismatches.end(), fw.mismatches.begin(), fw.mismatches.end());
  doc.notes.insert(doc.notes.end(), fw.notes.begin(), fw.notes.end());
}

std::optional<std::string> skip_firmware_if_sim(const RunContext& run) {
  if (run.doc.kind == TargetKind::sim) return std::string("a simulated drive has no firmware to ask");
  return std::nullopt;
}

PhaseOutcome query_firmware_phase(RunContext& run) {
  const ResultDocument& doc = run.doc;
  add_firmware_section(run.doc, doc.write_unit.bytes ? doc.write_unit.bytes : doc.read_page.bytes);
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
