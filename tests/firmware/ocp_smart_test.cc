// The OCP Datacenter NVMe SSD SMART / Health Information Extended log (C0h):
// every field from a page built by the OCP layout (log_page_builder.h),
// decoded, in reported.nvme.ocp and `info`, and the write amplification its
// physical media units give beside the SMART log on a drive without FDP.
#include <catch2/catch.hpp>

#include "firmware/nvme_logs.h"
#include "firmware/write_counters.h"
#include "firmware_test_util.h"
#include "log_page_builder.h"
#include "report/firmware_json.h"
#include "report/text_report.h"

using namespace ssdprobe;
using namespace firmware_test;

namespace {

OcpSmartSpec every_field() {
  OcpSmartSpec s;
  s.physical_media_units_written = (static_cast<uint128>(2) << 64) | 7;
  s.physical_media_units_read = 987654321;
  s.bad_user_nand_blocks = 0x1234'5678'9ABCull;  // 48 bits
  s.bad_user_nand_blocks_normalized = 98;
  s.bad_system_nand_blocks = 5;
  s.bad_system_nand_blocks_normalized = 100;
  s.xor_recovery_count = 11;
  s.uncorrectable_read_error_count = 12;
  s.soft_ecc_error_count = 13;
  s.end_to_end_detected_errors = 14;
  s.end_to_end_corrected_errors = 15;
  s.system_data_percent_used = 16;
  s.refresh_counts = 0x01'0203'0405'0607ull;  // 56 bits
  s.user_data_erase_count_max = 1700;
  s.user_data_erase_count_min = 1600;
  s.thermal_throttling_event_count = 3;
  s.thermal_throttling_status = 1;
  s.dssd_major = 2;
  s.dssd_minor = 5;
  s.dssd_point = 1;
  s.dssd_errata = 4;
  s.pcie_correctable_error_count = 19;
  s.incomplete_shutdowns = 20;
  s.percent_free_blocks = 21;
  s.capacitor_health = 95;
  s.unaligned_io = 22;
  s.security_version_number = 23;
  s.total_nuse = 24;
  s.plp_start_count = 25;
  s.endurance_estimate = 26;
  s.pcie_link_retraining_count = 27;
  s.power_state_change_count = 28;
  s.lowest_permitted_firmware_revision = "FW2.1";
  s.log_page_version = 4;
  return s;
}

TEST_CASE("OCP C0h: every field at its offset") {
  const auto log = decode_ocp_smart_log(ocp_smart_page(every_field()).bytes());
  REQUIRE(log);
  CHECK(log->physical_media_units_written == ((static_cast<uint128>(2) << 64) | 7));
  CHECK(log->physical_media_units_read == 987654321);
  CHECK(log->bad_user_nand_blocks == 0x1234'5678'9ABCull);
  CHECK(log->bad_user_nand_blocks_normalized == 98);
  CHECK(log->bad_system_nand_blocks == 5);
  CHECK(log->bad_system_nand_blocks_normalized == 100);
  CHECK(log->xor_recovery_count == 11);
  CHECK(log->uncorrectable_read_error_count == 12);
  CHECK(log->soft_ecc_error_count == 13);
  CHECK(log->end_to_end_detected_errors == 14);
  CHECK(log->end_to_end_corrected_errors == 15);
  CHECK(log->system_data_percent_used == 16);
  CHECK(log->refresh_counts == 0x01'0203'0405'0607ull);
  CHECK(log->user_data_erase_count_max == 1700);
  CHECK(log->user_data_erase_count_min == 1600);
  CHECK(log->thermal_throttling_event_count == 3);
  CHECK(log->thermal_throttling_status == 1);
  CHECK(log->pcie_correctable_error_count == 19);
  CHECK(log->incomplete_shutdowns == 20);
  CHECK(log->percent_free_blocks == 21);
  CHECK(log->capacitor_health == 95);
  CHECK(log->unaligned_io == 22);
  CHECK(log->security_version_number == 23);
  CHECK(log->total_nuse == 24);
  CHECK(log->plp_start_count == 25);
  CHECK(log->endurance_estimate == 26);
  CHECK(log->pcie_link_retraining_count == 27);
  CHECK(log->power_state_change_count == 28);
  CHECK(log->lowest_permitted_firmware_revision == "FW2.1");
  CHECK(log->log_page_version == 4);

  const auto j = ocp_smart_json(*log);
  CHECK(j["physical_media_units_written"] == "36893488147419103239");  // 2 * 2^64 + 7, past 64 bits: a string
  CHECK(j["dssd_specification_version"] == "2.5.1.4");
  CHECK(j["bad_user_nand_blocks_normalized"] == 98);
  CHECK(j["lowest_permitted_firmware_revision"] == "FW2.1");

  OcpSmartSpec other = every_field();
  other.guid = false;  // another vendor's C0h page
  CHECK_FALSE(decode_ocp_smart_log(ocp_smart_page(other).bytes()));
}

TEST_CASE("info prints the OCP C0h page under its name") {
  NvmeFirmwareData data;
  data.ocp = decode_ocp_smart_log(ocp_smart_page(every_field()).bytes());
  ResultDocument doc;
  doc.firmware.nvme = data;
  const std::string text = render_text(doc);
  CHECK(text.find("OCP SMART / Health Information Extended (C0h): physical_media_units_written "
                  "36893488147419103239") != std::string::npos);
  CHECK(text.find("capacitor_health 95") != std::string::npos);
}

TEST_CASE("Without FDP, OCP physical media units and SMART data units give the write amplification") {
  Page smart_before(512), smart_after(512);
  smart_before.le64(48, 1000);
  smart_after.le64(48, 1010);  // 10 data units: 5,120,000 B
  OcpSmartSpec before_spec, after_spec;
  before_spec.physical_media_units_written = 900'000'000;
  after_spec.physical_media_units_written = 900'000'000 + 12'800'000;
  const auto smart0 = decode_nvme_smart_log(smart_before.bytes());
  const auto smart1 = decode_nvme_smart_log(smart_after.bytes());
  const auto ocp0 = decode_ocp_smart_log(ocp_smart_page(before_spec).bytes());
  const auto ocp1 = decode_ocp_smart_log(ocp_smart_page(after_spec).bytes());
  const auto before = counters_from_nvme_logs(&*smart0, &*ocp0);
  const auto after = counters_from_nvme_logs(&*smart1, &*ocp1);
  const auto phase = write_phase_counts(before, after, 5'000'000, "stream writes");
  CHECK(phase.host_bytes_written == 5'120'000u);
  CHECK(phase.nand_bytes_written == 12'800'000u);
  CHECK(phase.write_amplification == 2.5);
  CHECK_FALSE(phase.media_bytes_erased);
  CHECK_FALSE(after.reclaim_unit_bytes);
}

}  // namespace
