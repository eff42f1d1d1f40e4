#include "firmware/nvme_endurance_log.h"

#include "firmware/checked_math.h"

namespace ssdprobe {

std::optional<NvmeEnduranceLog> decode_nvme_endurance_log(std::span<const uint8_t> buffer, uint16_t endgid) {
  if (buffer.size() < kNvmeEnduranceLogBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeEnduranceLogBytes));
  NvmeEnduranceLog log;
  log.endgid = endgid;
  log.critical_warning = r.u8(0);
  log.available_spare = r.u8(kEnduranceAvailableSpareOffset);
  log.available_spare_threshold = r.u8(kEnduranceAvailableSpareOffset + 1);
  log.percentage_used = r.u8(kEndurancePercentUsedOffset);
  log.endurance_estimate = r.le128(kEnduranceEstimateOffset);
  log.data_units_read = r.le128(kEnduranceEstimateOffset + 16);
  log.data_units_written = r.le128(kEnduranceEstimateOffset + 32);
  log.media_units_written = r.le128(kEnduranceMediaUnitsWrittenOffset);
  log.host_read_commands = r.le128(kEnduranceMediaUnitsWrittenOffset + 16);
  log.host_write_commands = r.le128(kEnduranceMediaUnitsWrittenOffset + 32);
  log.media_data_integrity_errors = r.le128(kEnduranceMediaUnitsWrittenOffset + 48);
  log.error_log_entries = r.le128(kEnduranceErrorEntriesOffset);
  log.total_capacity_bytes = r.le128(kEnduranceTotalCapacityOffset);
  log.unallocated_capacity_bytes = r.le128(kEnduranceTotalCapacityOffset + 16);
  return log;
}

std::optional<uint64_t> nvme_billions_to_bytes(uint128 units) {
  if (units > UINT64_MAX) return std::nullopt;
  return checked_mul(static_cast<uint64_t>(units), kNvmeEnduranceUnitBytes);
}

}  // namespace ssdprobe
