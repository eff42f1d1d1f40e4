// Decoders for the NVMe log pages ssdprobe reads: SMART / Health Information
// (log 02h, 512 bytes, NVM Express Base 2.0 figure "SMART / Health
// Information Log Page") and the OCP Datacenter NVMe SSD "SMART / Health
// Information Extended" page (vendor log C0h, 512 bytes). Pure functions over
// raw buffers; a buffer shorter than 512 bytes is rejected (nullopt), every
// read is bounds-checked.
//
// Units: NVMe "data units" are thousands of 512-byte units (1 unit =
// 512,000 bytes; the controller rounds up), so host writes in bytes are only
// known to ±512,000 B. OCP physical media units written/read are bytes
// written to / read from the NAND. C0h is vendor specific: only a page whose
// GUID (bytes 511:496) equals the OCP GUID is decoded as the OCP page.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "firmware/byte_reader.h"

namespace ssdprobe {

inline constexpr size_t kNvmeLogPageBytes = 512;
inline constexpr uint64_t kNvmeDataUnitBytes = 512000;
inline constexpr uint8_t kNvmeLogSmart = 0x02;
inline constexpr uint8_t kOcpLogSmartExtended = 0xC0;
// AFD514C9-7C6F-4F9C-A4F2-BFEA2810AFC5 as the bytes appear at offset 496.
inline constexpr std::array<uint8_t, 16> kOcpSmartLogGuid = {0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
                                                             0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF};

struct NvmeSmartLog {
  uint8_t critical_warning = 0;
  uint16_t composite_temperature = 0;  // kelvin
  uint8_t available_spare = 0, available_spare_threshold = 0, percentage_used = 0;
  uint8_t endurance_group_critical_warning_summary = 0;
  uint128 data_units_read = 0, data_units_written = 0;
  uint128 host_read_commands = 0, host_write_commands = 0;
  uint128 controller_busy_time = 0, power_cycles = 0, power_on_hours = 0;
  uint128 unsafe_shutdowns = 0, media_errors = 0, num_err_log_entries = 0;
  uint32_t warning_temp_time = 0, critical_comp_time = 0;
};

struct OcpSmartLog {
  uint128 physical_media_units_written = 0;  // bytes
  uint128 physical_media_units_read = 0;     // bytes
  uint64_t bad_user_nand_blocks = 0;         // raw count (48 bits)
  uint16_t bad_user_nand_blocks_normalized = 0;
  uint64_t bad_system_nand_blocks = 0;       // raw count (48 bits)
  uint16_t bad_system_nand_blocks_normalized = 0;
  uint64_t xor_recovery_count = 0;
  uint64_t uncorrectable_read_error_count = 0;
  uint64_t soft_ecc_error_count = 0;
  uint32_t end_to_end_detected_errors = 0, end_to_end_corrected_errors = 0;
  uint8_t system_data_percent_used = 0;
  uint64_t refresh_counts = 0;  // 56 bits
  uint32_t user_data_erase_count_max = 0, user_data_erase_count_min = 0;
  uint8_t thermal_throttling_event_count = 0, thermal_throttling_status = 0;
  // DSSD specification version the page follows: major.minor.point.errata.
  uint8_t dssd_major_version = 0, dssd_errata_version = 0;
  uint16_t dssd_minor_version = 0, dssd_point_version = 0;
  uint64_t pcie_correctable_error_count = 0;
  uint32_t incomplete_shutdowns = 0;
  uint8_t percent_free_blocks = 0;
  uint16_t capacitor_health = 0;
  uint8_t nvme_base_errata_version = 0, nvme_command_set_errata_version = 0;
  uint64_t unaligned_io = 0;
  uint64_t security_version_number = 0;
  uint64_t total_nuse = 0;                 // NUSE over all namespaces
  uint128 plp_start_count = 0;
  uint128 endurance_estimate = 0;
  uint64_t pcie_link_retraining_count = 0;
  uint64_t power_state_change_count = 0;
  std::string lowest_permitted_firmware_revision;
  uint64_t nand_avg_erase_count = 0;
  uint16_t log_page_version = 0;
};

std::optional<NvmeSmartLog> decode_nvme_smart_log(std::span<const uint8_t> buffer);

// True if `buffer` is at least 512 bytes and carries the OCP GUID at 496.
bool is_ocp_smart_log(std::span<const uint8_t> buffer);
// nullopt unless is_ocp_smart_log(buffer).
std::optional<OcpSmartLog> decode_ocp_smart_log(std::span<const uint8_t> buffer);

// data units × 512,000 B, or nullopt if that does not fit in 64 bits.
std::optional<uint64_t> nvme_data_units_to_bytes(uint128 units);

}  // namespace ssdprobe
