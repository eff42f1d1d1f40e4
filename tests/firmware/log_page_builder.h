// Builds NVMe log pages field by field from the layouts in the NVMe Base 2.1
// FDP figures (FDP Configurations 20h, Reclaim Unit Handle Usage 21h, FDP
// Statistics 22h, FDP Events 23h) and the OCP Datacenter NVMe SSD
// specification (SMART / Health Information Extended, C0h): each field is
// written at the byte offset the spec gives it, from values a test names, so
// a test states what the drive reports and the decoder must find it there.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "firmware/byte_reader.h"
#include "firmware/nvme_logs.h"
#include "firmware_test_util.h"

namespace firmware_test {

inline void put_le128(Page& p, size_t offset, ssdprobe::uint128 value) {
  p.le64(offset, static_cast<uint64_t>(value)).le64(offset + 8, static_cast<uint64_t>(value >> 64));
}

// One FDP Configuration Descriptor.
struct FdpConfigSpec {
  uint8_t fdpa = 0x80;  // bit 7: valid
  uint32_t nrg = 1;
  std::vector<uint8_t> ruht = {1};  // one handle type per reclaim unit handle
  uint16_t maxpids = 0;
  uint32_t nnss = 0;
  uint64_t runs = 0;
  uint32_t erutl = 0;
  std::vector<uint8_t> vendor;  // VSS bytes after the handle descriptors
};

inline size_t fdp_config_size(const FdpConfigSpec& c) { return 64 + 4 * c.ruht.size() + c.vendor.size(); }

// Header (NUMFDPC 0's based, version, LSIZE) and the descriptors in order.
inline Page fdp_configurations_page(const std::vector<FdpConfigSpec>& configs, uint8_t version = 0) {
  size_t size = 16;
  for (const auto& c : configs) size += fdp_config_size(c);
  Page p(size);
  p.le16(0, static_cast<uint16_t>(configs.size() - 1)).u8(2, version).le32(4, static_cast<uint32_t>(size));
  size_t at = 16;
  for (const auto& c : configs) {
    p.le16(at, static_cast<uint16_t>(fdp_config_size(c))).u8(at + 2, c.fdpa).u8(at + 3, static_cast<uint8_t>(c.vendor.size()));
    p.le32(at + 4, c.nrg).le16(at + 8, static_cast<uint16_t>(c.ruht.size())).le16(at + 10, c.maxpids);
    p.le32(at + 12, c.nnss).le64(at + 16, c.runs).le32(at + 24, c.erutl);
    for (size_t i = 0; i < c.ruht.size(); ++i) p.u8(at + 64 + 4 * i, c.ruht[i]);
    for (size_t i = 0; i < c.vendor.size(); ++i) p.u8(at + 64 + 4 * c.ruht.size() + i, c.vendor[i]);
    at += fdp_config_size(c);
  }
  return p;
}

// NRUH and one 8-byte descriptor (RUHA in byte 0) per handle.
inline Page fdp_ruh_usage_page(const std::vector<uint8_t>& ruha) {
  Page p(8 + 8 * ruha.size());
  p.le16(0, static_cast<uint16_t>(ruha.size()));
  for (size_t i = 0; i < ruha.size(); ++i) p.u8(8 + 8 * i, ruha[i]);
  return p;
}

inline Page fdp_statistics_page(ssdprobe::uint128 hbmw, ssdprobe::uint128 mbmw, ssdprobe::uint128 mbe) {
  Page p(64);
  put_le128(p, 0, hbmw);
  put_le128(p, 16, mbmw);
  put_le128(p, 32, mbe);
  return p;
}

struct FdpEventSpec {
  uint8_t type = 0;
  uint8_t flags = 0;  // 0 PIV, 1 NSIDV, 2 LV
  uint16_t pid = 0;
  uint64_t timestamp_ms = 0;
  uint32_t nsid = 0;
  uint16_t rgid = 0;
  uint8_t ruhid = 0;
  uint16_t nlbam = 0;               // Media Reallocated
  std::optional<uint64_t> lba;      // Media Reallocated, sets LBAV
};

// NUMFDPE and the events from byte 64, in a 4096-byte page as the drive
// returns it (63 event slots).
inline Page fdp_events_page(const std::vector<FdpEventSpec>& events) {
  Page p(4096);
  p.le32(0, static_cast<uint32_t>(events.size()));
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    const size_t at = 64 + 64 * i;
    p.u8(at, e.type).u8(at + 1, e.flags).le16(at + 2, e.pid).le(at + 4, e.timestamp_ms, 6);
    p.le32(at + 12, e.nsid).le16(at + 32, e.rgid).u8(at + 34, e.ruhid);
    p.u8(at + 16, e.lba ? 1 : 0).le16(at + 18, e.nlbam).le64(at + 20, e.lba.value_or(0));
  }
  return p;
}

// The OCP C0h fields a test sets; everything else reads as zero.
struct OcpSmartSpec {
  ssdprobe::uint128 physical_media_units_written = 0, physical_media_units_read = 0;
  uint64_t bad_user_nand_blocks = 0;
  uint16_t bad_user_nand_blocks_normalized = 0;
  uint64_t bad_system_nand_blocks = 0;
  uint16_t bad_system_nand_blocks_normalized = 0;
  uint64_t xor_recovery_count = 0, uncorrectable_read_error_count = 0, soft_ecc_error_count = 0;
  uint32_t end_to_end_detected_errors = 0, end_to_end_corrected_errors = 0;
  uint8_t system_data_percent_used = 0;
  uint64_t refresh_counts = 0;
  uint32_t user_data_erase_count_max = 0, user_data_erase_count_min = 0;
  uint8_t thermal_throttling_event_count = 0, thermal_throttling_status = 0;
  uint8_t dssd_major = 0, dssd_errata = 0;
  uint16_t dssd_minor = 0, dssd_point = 0;
  uint64_t pcie_correctable_error_count = 0;
  uint32_t incomplete_shutdowns = 0;
  uint8_t percent_free_blocks = 0;
  uint16_t capacitor_health = 0;
  uint64_t unaligned_io = 0, security_version_number = 0, total_nuse = 0;
  ssdprobe::uint128 plp_start_count = 0, endurance_estimate = 0;
  uint64_t pcie_link_retraining_count = 0, power_state_change_count = 0;
  std::string lowest_permitted_firmware_revision;
  uint16_t log_page_version = 0;
  bool guid = true;  // the OCP GUID at 496
};

inline Page ocp_smart_page(const OcpSmartSpec& s) {
  Page p(512);
  put_le128(p, 0, s.physical_media_units_written);
  put_le128(p, 16, s.physical_media_units_read);
  p.le(32, s.bad_user_nand_blocks, 6).le16(38, s.bad_user_nand_blocks_normalized);
  p.le(40, s.bad_system_nand_blocks, 6).le16(46, s.bad_system_nand_blocks_normalized);
  p.le64(48, s.xor_recovery_count).le64(56, s.uncorrectable_read_error_count).le64(64, s.soft_ecc_error_count);
  p.le32(72, s.end_to_end_detected_errors).le32(76, s.end_to_end_corrected_errors);
  p.u8(80, s.system_data_percent_used).le(81, s.refresh_counts, 7);
  p.le32(88, s.user_data_erase_count_max).le32(92, s.user_data_erase_count_min);
  p.u8(96, s.thermal_throttling_event_count).u8(97, s.thermal_throttling_status);
  p.u8(98, s.dssd_errata).le16(99, s.dssd_point).le16(101, s.dssd_minor).u8(103, s.dssd_major);
  p.le64(104, s.pcie_correctable_error_count).le32(112, s.incomplete_shutdowns).u8(120, s.percent_free_blocks);
  p.le16(128, s.capacitor_health).le64(136, s.unaligned_io).le64(144, s.security_version_number);
  p.le64(152, s.total_nuse);
  put_le128(p, 160, s.plp_start_count);
  put_le128(p, 176, s.endurance_estimate);
  p.le64(192, s.pcie_link_retraining_count).le64(200, s.power_state_change_count);
  p.ascii(208, s.lowest_permitted_firmware_revision, 8);
  p.le16(494, s.log_page_version);
  for (size_t i = 0; s.guid && i < ssdprobe::kOcpSmartLogGuid.size(); ++i) p.u8(496 + i, ssdprobe::kOcpSmartLogGuid[i]);
  return p;
}

}  // namespace firmware_test
