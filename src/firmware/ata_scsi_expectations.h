// What Linux should show in sysfs for a SATA disk (from IDENTIFY DEVICE, as
// libata translates it) or a SCSI disk (from READ CAPACITY(16) and the Block
// Limits VPD page, as sd reads them). These rules have been stable across
// the kernels ssdprobe supports, so differences are warnings.
//
// SATA (libata + sd):
//   logical_block_size  = IDENTIFY words 117-118 (else 512)
//   physical_block_size = logical × 2^(word 106 bits 3:0)
//   minimum_io_size     = physical (libata reports it as the optimal
//                         transfer length granularity)
//   alignment_offset    = lowest aligned LBA × logical, modulo physical
//   discard_granularity = physical, when TRIM is supported (libata reports
//                         an optimal unmap granularity of one block)
//   rotational          = 0 when word 217 = 1, 1 for a rotation rate; no
//                         expectation when word 217 is 0
// SCSI (sd):
//   logical_block_size  = LOGICAL BLOCK LENGTH
//   physical_block_size = logical × 2^LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT
//   alignment_offset    = LOWEST ALIGNED LBA × logical, modulo physical
//   minimum_io_size     = max(physical, OPTIMAL TRANSFER LENGTH GRANULARITY × logical)
//   optimal_io_size     = OPTIMAL TRANSFER LENGTH × logical when sd accepts it
//                         (non-zero, <= MAXIMUM TRANSFER LENGTH and 0xFFFF blocks,
//                         at least 4 KiB, a multiple of physical), else 0
#pragma once

#include <optional>

#include "firmware/ata_identify.h"
#include "firmware/scsi_pages.h"
#include "firmware/sysfs_expectation.h"

namespace ssdprobe {

SysfsExpectation expected_ata_sysfs(const AtaIdentify& id);
SysfsExpectation expected_scsi_sysfs(const ReadCapacity16& capacity, const std::optional<BlockLimitsVpd>& limits);

}  // namespace ssdprobe
