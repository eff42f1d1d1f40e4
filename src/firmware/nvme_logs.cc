#include "firmware/nvme_logs.h"

#include <algorithm>

#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {

constexpr size_t kOcpGuidOffset = 496;

void decode_smart_status(const ByteReader& r, NvmeSmartLog& log) {
  log.critical_warning = r.u8(0);
  log.composite_temperature = r.le16(1);
  log.available_spare = r.u8(3);
  log.available_spare_threshold = r.u8(4);
  log.percentage_used = r.u8(5);
  log.endurance_group_critical_warning_summary = r.u8(6);
}

void decode_smart_counters(const ByteReader& r, NvmeSmartLog& log) {
  log.data_units_read = r.le128(32);
  log.data_units_written = r.le128(48);
  log.host_read_commands = r.le128(64);
  log.host_write_commands = r.le128(80);
  log.controller_busy_time = r.le128(96);
  log.power_cycles = r.le128(112);
  log.power_on_hours = r.le128(128);
  log.unsafe_shutdowns = r.le128(144);
  log.media_errors = r.le128(160);
  log.num_err_log_entries = r.le128(176);
  log.warning_temp_time = r.le32(192);
  log.critical_comp_time = r.le32(196);
}

void decode_ocp_media(const ByteReader& r, OcpSmartLog& log) {
  log.physical_media_units_written = r.le128(0);
  log.physical_media_units_read = r.le128(16);
  log.bad_user_nand_blocks = r.le(32, 6);
  log.bad_user_nand_blocks_normalized = r.le16(38);
  log.bad_system_nand_blocks = r.le(40, 6);
  log.bad_system_nand_blocks_normalized = r.le16(46);
  log.xor_recovery_count = r.le64(48);
  log.uncorrectable_read_error_count = r.le64(56);
  log.soft_ecc_error_count = r.le64(64);
  log.end_to_end_detected_errors = r.le32(72);
  log.end_to_end_corrected_errors = r.le32(76);
  log.system_data_percent_used = r.u8(80);
  log.refresh_counts = r.le(81, 7);
  log.user_data_erase_count_max = r.le32(88);
  log.user_data_erase_count_min = r.le32(92);
}

void decode_ocp_health(const ByteReader& r, OcpSmartLog& log) {
  log.thermal_throttling_event_count = r.u8(96);
  log.thermal_throttling_status = r.u8(97);
  log.dssd_errata_version = r.u8(98);
  log.dssd_point_version = r.le16(99);
  log.dssd_minor_version = r.le16(101);
  log.dssd_major_version = r.u8(103);
  log.pcie_correctable_error_count = r.le64(104);
  log.incomplete_shutdowns = r.le32(112);
  log.percent_free_blocks = r.u8(120);
  log.capacitor_health = r.le16(128);
  log.nvme_base_errata_version = r.u8(130);
  log.nvme_command_set_errata_version = r.u8(131);
  log.unaligned_io = r.le64(136);
  log.log_page_version = r.le16(494);
}

void decode_ocp_lifetime(const ByteReader& r, OcpSmartLog& log) {
  log.security_version_number = r.le64(144);
  log.total_nuse = r.le64(152);
  log.plp_start_count = r.le128(160);
  log.endurance_estimate = r.le128(176);
  log.pcie_link_retraining_count = r.le64(192);
  log.power_state_change_count = r.le64(200);
  log.lowest_permitted_firmware_revision = r.ascii(208, 8);
  log.nand_avg_erase_count = r.le64(224);
}

}  // namespace

std::optional<uint64_t> nvme_data_units_to_bytes(uint128 units) {
  if (units > UINT64_MAX) return std::nullopt;
  return checked_mul(static_cast<uint64_t>(units), kNvmeDataUnitBytes);
}

std::optional<NvmeSmartLog> decode_nvme_smart_log(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeLogPageBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeLogPageBytes));
  NvmeSmartLog log;
  decode_smart_status(r, log);
  decode_smart_counters(r, log);
  return log;
}

bool is_ocp_smart_log(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeLogPageBytes) return false;
  return std::equal(kOcpSmartLogGuid.begin(), kOcpSmartLogGuid.end(), buffer.begin() + kOcpGuidOffset);
}

std::optional<OcpSmartLog> decode_ocp_smart_log(std::span<const uint8_t> buffer) {
  if (!is_ocp_smart_log(buffer)) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeLogPageBytes));
  OcpSmartLog log;
  decode_ocp_media(r, log);
  decode_ocp_health(r, log);
  decode_ocp_lifetime(r, log);
  return log;
}

}  // namespace ssdprobe
