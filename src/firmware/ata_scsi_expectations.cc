#include "firmware/ata_scsi_expectations.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdprobe {

namespace {

constexpr uint64_t kSdMaxOptimalBlocks = 0xffff;  // SD_DEF_XFER_BLOCKS

int64_t alignment(uint64_t lowest_aligned, uint64_t logical, uint64_t physical) {
  if (physical == 0) return 0;
  return static_cast<int64_t>((lowest_aligned * logical) % physical);
}

ExpectedField rotational(uint16_t word217) {
  if (word217 == 1) return {"rotational", 0, "IDENTIFY word 217 = 1 (non-rotating)"};
  if (word217 >= 0x0401 && word217 <= 0xfffe)
    return {"rotational", 1, fmt::format("IDENTIFY word 217 = {} rpm", word217)};
  return {"rotational", std::nullopt, "word 217 reports no rotation rate"};
}

ExpectedField optimal_io(const ReadCapacity16& c, const std::optional<BlockLimitsVpd>& limits, uint64_t physical) {
  const uint32_t otl = limits ? limits->optimal_transfer_length.value_or(0) : 0;
  const uint32_t mtl = limits ? limits->maximum_transfer_length.value_or(0) : 0;
  const uint64_t bytes = uint64_t{otl} * c.block_length;
  if (otl == 0) return {"optimal_io_size", 0, "OPTIMAL TRANSFER LENGTH not reported"};
  const bool accepted = (mtl == 0 || otl <= mtl) && otl <= kSdMaxOptimalBlocks && bytes >= kKernelPageBytes &&
                        physical != 0 && bytes % physical == 0;
  if (!accepted) return {"optimal_io_size", 0, fmt::format("sd rejects OPTIMAL TRANSFER LENGTH {}", otl)};
  return {"optimal_io_size", static_cast<int64_t>(bytes), fmt::format("OPTIMAL TRANSFER LENGTH {}", otl)};
}

}  // namespace

SysfsExpectation expected_ata_sysfs(const AtaIdentify& id) {
  SysfsExpectation e{"ATA IDENTIFY DEVICE", "", {}};
  const auto logical = static_cast<int64_t>(id.logical_sector_bytes);
  const auto physical = static_cast<int64_t>(id.physical_sector_bytes);
  e.fields.push_back({"logical_block_size", logical, fmt::format("words 106/117-118 (word 106 = {:04X}h)", id.word106)});
  e.fields.push_back({"physical_block_size", physical, fmt::format("word 106 = {:04X}h", id.word106)});
  e.fields.push_back({"minimum_io_size", physical, "libata reports the physical sector as granularity"});
  e.fields.push_back({"alignment_offset",
                      alignment(id.lowest_aligned_lba, id.logical_sector_bytes, id.physical_sector_bytes),
                      fmt::format("word 209 = {:04X}h", id.word209)});
  if (id.trim_supported) e.fields.push_back({"discard_granularity", physical, "TRIM supported (word 169 bit 0)"});
  e.fields.push_back(rotational(id.word217));
  return e;
}

SysfsExpectation expected_scsi_sysfs(const ReadCapacity16& c, const std::optional<BlockLimitsVpd>& limits) {
  SysfsExpectation e{"SCSI READ CAPACITY(16) / Block Limits VPD", "", {}};
  if (c.block_length == 0) return e;
  const uint64_t physical = c.physical_block_bytes().value_or(0);
  uint64_t io_min = physical;
  const uint16_t otlg = limits ? limits->optimal_transfer_length_granularity.value_or(0) : 0;
  io_min = std::max<uint64_t>(io_min, uint64_t{otlg} * c.block_length);
  e.fields.push_back({"logical_block_size", c.block_length, "LOGICAL BLOCK LENGTH"});
  e.fields.push_back({"physical_block_size", static_cast<int64_t>(physical), fmt::format("exponent {}", c.lbppbe)});
  e.fields.push_back({"alignment_offset", alignment(c.lowest_aligned_lba, c.block_length, physical),
                      fmt::format("LOWEST ALIGNED LBA {}", c.lowest_aligned_lba)});
  e.fields.push_back({"minimum_io_size", static_cast<int64_t>(io_min),
                      fmt::format("max(physical, OPTIMAL TRANSFER LENGTH GRANULARITY {})", otlg)});
  e.fields.push_back(optimal_io(c, limits, physical));
  return e;
}

}  // namespace ssdprobe
