// Decoder for the NVMe Endurance Group Information log page (LID 09h, 512
// bytes, NVM Express Base 2.0 "Endurance Group Information Log Page"), read
// for one endurance group (Log Specific Identifier = ENDGID). Pure function
// over a raw buffer; a buffer shorter than 512 bytes is rejected (nullopt),
// every read is bounds-checked.
//
// Units differ from the SMART/Health log's: Endurance Estimate, Data Units
// Read/Written and Media Units Written are in billions of bytes (1 =
// 1,000,000,000 B, rounded up by the controller), not in 512,000 B data
// units. Media Units Written counts host and controller writes to the media
// (garbage collection included): a NAND-side counter, coarse as it is.
// Total/Unallocated Endurance Group Capacity (NVMe 2.0) are in bytes; older
// controllers leave them reserved (0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "firmware/byte_reader.h"

namespace ssdprobe {

inline constexpr uint8_t kNvmeLogEnduranceGroup = 0x09;
inline constexpr size_t kNvmeEnduranceLogBytes = 512;
inline constexpr uint64_t kNvmeEnduranceUnitBytes = 1'000'000'000;
inline constexpr uint32_t kNvmeCtrattEnduranceGroups = 1u << 4;  // Identify Controller CTRATT bit 4
// Critical Warning bits (the others are reserved).
inline constexpr uint8_t kEnduranceWarningSpare = 1u << 0;
inline constexpr uint8_t kEnduranceWarningDegraded = 1u << 2;
inline constexpr uint8_t kEnduranceWarningReadOnly = 1u << 3;

// Byte offsets (static_asserts in nvme_admin.cc hold them to libnvme's
// struct nvme_endurance_group_log).
inline constexpr size_t kEnduranceAvailableSpareOffset = 3;
inline constexpr size_t kEndurancePercentUsedOffset = 5;
inline constexpr size_t kEnduranceEstimateOffset = 32;
inline constexpr size_t kEnduranceMediaUnitsWrittenOffset = 80;
inline constexpr size_t kEnduranceErrorEntriesOffset = 144;
inline constexpr size_t kEnduranceTotalCapacityOffset = 160;

struct NvmeEnduranceLog {
  uint16_t endgid = 0;  // the group read (not in the page: the request's LSI)
  uint8_t critical_warning = 0;
  uint8_t available_spare = 0, available_spare_threshold = 0;  // normalized %
  uint8_t percentage_used = 0;  // may exceed 100
  uint128 endurance_estimate = 0;  // billions of bytes; 0: not reported
  uint128 data_units_read = 0, data_units_written = 0, media_units_written = 0;  // billions of bytes
  uint128 host_read_commands = 0, host_write_commands = 0;
  uint128 media_data_integrity_errors = 0, error_log_entries = 0;
  uint128 total_capacity_bytes = 0, unallocated_capacity_bytes = 0;  // TEGCAP, UEGCAP; 0: not reported
};

std::optional<NvmeEnduranceLog> decode_nvme_endurance_log(std::span<const uint8_t> buffer, uint16_t endgid);

// A count of billions of bytes in bytes, or nullopt if that does not fit in
// 64 bits.
std::optional<uint64_t> nvme_billions_to_bytes(uint128 units);

}  // namespace ssdprobe
