#include "firmware/sd_query.h"

#include <fmt/format.h>

#include "firmware/attempt.h"

namespace ssdprobe {

namespace {

// ATA PASS-THROUGH needs CAP_SYS_RAWIO while INQUIRY and READ CAPACITY only
// need read access, so a refusal here does not stop the SCSI commands.
void read_ata(SgioAdmin& admin, ScsiFirmwareData& data, std::vector<std::string>& notes) {
  Attempts attempt(notes);
  const auto bytes = attempt([&] { return admin.ata_identify(); });
  if (!bytes) return;
  data.ata = decode_ata_identify(*bytes);
  if (!data.ata) {
    notes.push_back(fmt::format("ATA IDENTIFY DEVICE returned {} bytes, expected 512", bytes->size()));
  } else if (data.ata->checksum_present && !data.ata->checksum_valid) {
    notes.push_back("ATA IDENTIFY DEVICE checksum (word 255) does not match: the data may be corrupt");
  }
}

void read_scsi(SgioAdmin& admin, Attempts& attempt, ScsiPages& scsi) {
  if (auto bytes = attempt([&] { return admin.inquiry(); })) scsi.inquiry = decode_standard_inquiry(*bytes);
  if (auto bytes = attempt([&] { return admin.inquiry_vpd(0x80); })) scsi.unit_serial = decode_unit_serial_vpd(*bytes);
  if (auto bytes = attempt([&] { return admin.read_capacity16(); })) scsi.capacity = decode_read_capacity16(*bytes);
  if (auto bytes = attempt([&] { return admin.inquiry_vpd(0xB0); })) scsi.block_limits = decode_block_limits_vpd(*bytes);
}

}  // namespace

ScsiFirmwareData read_scsi_firmware(const std::string& disk_path, const SgioAdminOpener& open,
                                    std::vector<std::string>& notes) {
  ScsiFirmwareData data;
  Attempts attempt(notes);
  auto admin = attempt([&] { return open(disk_path); });
  if (!admin || !*admin) return data;
  read_ata(**admin, data, notes);
  read_scsi(**admin, attempt, data.scsi);
  return data;
}

}  // namespace ssdprobe
