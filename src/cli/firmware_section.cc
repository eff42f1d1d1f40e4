#include "cli/firmware_section.h"

#include "firmware/firmware_query.h"

namespace ssdprobe {

void add_firmware_section(ResultDocument& doc, std::optional<uint64_t> measured_unit) {
  if (doc.kind == TargetKind::sim) return;  // a simulated drive has no firmware to ask
  const FirmwareReport fw = query_firmware(doc.path, doc.topology, measured_unit);
  doc.firmware.nvme = fw.nvme;
  doc.firmware.ata = fw.ata;
  doc.firmware.scsi = fw.scsi;
  doc.firmware.smart = fw.smart;
  doc.firmware.identity_source = fw.identity_source;
  doc.firmware.expectations = fw.expectations;
  // Firmware strings are complete where sysfs truncates (ATA model: 16 chars).
  if (!fw.model.empty()) doc.topology.model = fw.model;
  if (!fw.serial.empty()) doc.topology.serial = fw.serial;
  if (!fw.firmware.empty()) doc.topology.firmware = fw.firmware;
  doc.mismatches.insert(doc.mismatches.end(), fw.mismatches.begin(), fw.mismatches.end());
  doc.notes.insert(doc.notes.end(), fw.notes.begin(), fw.notes.end());
}

}  // namespace ssdprobe
