// What Linux should show in sysfs for an NVMe namespace, derived from its
// Identify data, and what the Identify data alone says is missing or odd.
//
// The kernel model is Linux 6.1's nvme_update_disk_info()/nvme_config_discard()
// (the kernel's block/ and nvme/ drivers: how what drives report becomes sysfs):
//   logical_block_size  = LBA size (2^LBAF[FLBAS].DS)
//   minimum_io_size     = LBA × (1 + NPWG)            if NSFEAT bit 4, else LBA
//   optimal_io_size     = LBA × (1 + NOWS)            if NSFEAT bit 4, else 0
//   physical_block_size = min(minimum_io_size, atomic unit), where the atomic
//                         unit is LBA when NABO != 0, else LBA × (1 + NAWUPF)
//                         when NSFEAT bit 1 and NAWUPF != 0, else LBA × (1 + AWUPF)
//   discard_granularity = LBA when ONCS bit 2 (Dataset Management) is set
// Only NSFEAT bit 4 counts here (6.1 predates NVMe 2.1's two-bit OPTPERF).
// 6.1 cannot use LBAs larger than the 4 KiB page: no expectation then.
// Newer kernels differ (NOWS=0 leaves optimal_io_size 0, NPDG feeds the
// discard granularity, AWUPF needs an opt-in): differences on a kernel other
// than 6.1 are reported with severity "info".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/verdicts.h"
#include "device/topology.h"
#include "firmware/nvme_identify.h"
#include "firmware/sysfs_expectation.h"

namespace ssdprobe {

// `ctrl` may be null (AWUPF then unknown, physical_block_size and
// discard_granularity get no expectation).
SysfsExpectation expected_nvme_sysfs(const NvmeIdCtrl* ctrl, const NvmeIdNs& ns);

// Firmware-only findings, each a Mismatch named by the Identify field:
//  - nsfeat  (warning): NSFEAT bit 4 clear while `measured_unit` > LBA
//  - npwg    (warning): NSFEAT bit 4 set and (NPWG+1) × LBA < `measured_unit`
//  - nows    (info):    NOWS = 0 (no optimal write size beyond one LBA)
//  - flbas   (info):    another LBA format with the same metadata size has a
//                       better relative performance (lower RP) than the one in use
//  - noiob   (warning): NOIOB != 0 and not a power of two (Linux ignores it)
// `reported` is what the firmware implies in bytes, `detected` the measured
// or better value where there is one.
std::vector<Mismatch> nvme_firmware_findings(const NvmeIdNs& ns, std::optional<uint64_t> measured_unit);

}  // namespace ssdprobe
