// Asks the firmware what it claims about a target and compares that with the
// kernel's view (sysfs) and, when given, with a measured unit.
//
//   NVMe (/dev/nvmeXnY[pZ], /dev/ngXnY, /dev/nvmeX; transport "nvme"):
//       Identify Controller/Namespace, NVM command set namespace page,
//       SMART/Health log, OCP C0h log (libnvme)        -> nvme
//   SATA/SCSI (sd*; transport "sata" or "scsi"):
//       ATA IDENTIFY DEVICE via ATA PASS-THROUGH(16)   -> ata
//       INQUIRY, VPD 80h/B0h, READ CAPACITY(16)        -> scsi
//   NVMe and sd targets: `smartctl -j -a`              -> smart
//   Zoned targets (sysfs queue/zoned): the kernel's zone report
//       (BLKREPORTZONE)                                -> zones
//       and for NVMe the ZNS Identify pages            -> nvme.zns_*
//   SD/eMMC (mmcblk*; transport "mmc"): the card registers and erase
//       sizes the kernel shows in sysfs                 -> mmc
//   virtio, loop, file, sim and unknown targets: no firmware-level
//   interface; only a note.
//
// Nothing here throws for a missing capability, a command the drive does not
// support or a missing tool: each failure becomes a note saying what could
// not be read and why (e.g. "... NVMe passthrough needs CAP_SYS_ADMIN"), and
// the run goes on with what sysfs says. All commands only read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdicts.h"
#include "device/topology.h"
#include "device/zone_report.h"
#include "firmware/mmc_query.h"
#include "firmware/nvme_query.h"
#include "firmware/sd_query.h"
#include "firmware/smartctl_json.h"
#include "firmware/smartctl_runner.h"
#include "firmware/sysfs_expectation.h"
#include "firmware/write_counters.h"

namespace ssdprobe {

struct FirmwareReport {
  // What each interface reported (reported.nvme / ata / scsi / smart in
  // spec/result-json.md), nullopt when there was nothing: nvme when Identify
  // Controller or Namespace was read, scsi when any SCSI page was, smart when
  // smartctl's output was its JSON (even one saying it could not read).
  std::optional<NvmeFirmwareData> nvme;
  std::optional<AtaIdentify> ata;
  std::optional<ScsiPages> scsi;
  std::optional<SmartctlReport> smart;
  // The kernel's zone report of a zoned target (reported.zoned.report),
  // nullopt when the target is not zoned or the report failed (then a note).
  std::optional<ZoneSummary> zones;
  std::optional<MmcCardData> mmc;
  // Best identity: NVMe Identify, else ATA IDENTIFY, else SCSI INQUIRY, else
  // card CID, else smartctl, else sysfs; identity_source names the one used.
  std::string model, serial, firmware, identity_source;
  // What each firmware source implies sysfs should show (for `info`).
  std::vector<SysfsExpectation> expectations;
  // Firmware vs sysfs (named by the sysfs field) and firmware vs measured
  // (named by the firmware field: nsfeat, npwg, nows, flbas, noiob).
  std::vector<Mismatch> mismatches;
  std::vector<std::string> notes;
};

// The seams the probe uses, replaceable in tests.
struct FirmwareBackends {
  NvmeAdminOpener open_nvme;
  SgioAdminOpener open_sgio;
  std::function<SmartctlRun(const std::string& device)> run_smartctl;
  std::function<std::vector<Zone>(const std::string& device)> report_zones;
  std::string sysfs_root = "/sys";
};

// libnvme, SG_IO, the smartctl in PATH (30 s timeout) and /sys.
FirmwareBackends default_firmware_backends();

// `path` is the target as the user gave it; `sysfs` its topology (transport
// and disk name decide the route). `measured_unit` is the write/read unit
// measured by timing, if any.
FirmwareReport query_firmware(const std::string& path, const Topology& sysfs, std::optional<uint64_t> measured_unit,
                              const FirmwareBackends& backends = default_firmware_backends());

// The drive's lifetime write counters, for write amplification: NVMe SMART
// log and OCP C0h through libnvme when that works, else smartctl (on the
// whole disk for a partition). Never throws; counters that could not be read
// stay empty and `notes` says why.
SmartWriteCounters read_write_counters(const std::string& path,
                                       const FirmwareBackends& backends = default_firmware_backends());

}  // namespace ssdprobe
