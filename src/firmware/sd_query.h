// Reads what ssdprobe decodes from a SCSI disk (/dev/sdX) through SgioAdmin:
// ATA IDENTIFY DEVICE via ATA PASS-THROUGH (SATA disks and SAT bridges),
// standard INQUIRY, the Unit Serial Number and Block Limits VPD pages and
// READ CAPACITY(16). Each command may fail on its own; a failure becomes a
// note and the rest still run (after a permission refusal nothing more is
// tried). Never throws ssdprobe::Error.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "firmware/ata_identify.h"
#include "firmware/scsi_pages.h"
#include "firmware/sgio_admin.h"

namespace ssdprobe {

using SgioAdminOpener = std::function<std::unique_ptr<SgioAdmin>(const std::string& disk_path)>;

struct ScsiFirmwareData {
  std::optional<AtaIdentify> ata;
  ScsiPages scsi;
};

ScsiFirmwareData read_scsi_firmware(const std::string& disk_path, const SgioAdminOpener& open,
                                    std::vector<std::string>& notes);

}  // namespace ssdprobe
