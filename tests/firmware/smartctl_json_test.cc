// Parsing smartctl -j -a output (samples in tests/data/firmware, smartctl 7.3
// layout) and the write counters taken from it.
#include "firmware/smartctl_json.h"

#include <catch2/catch.hpp>

#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using firmware_test::read_data_file;

TEST_CASE("smartctl NVMe sample: identity, block size, data units written") {
  const auto r = parse_smartctl_json(read_data_file("smartctl_nvme_970evo.json"));
  REQUIRE(r.parsed);
  CHECK(r.has_data);
  CHECK(r.exit_status == 0);
  CHECK(r.device_type == "nvme");
  CHECK(r.protocol == "NVMe");
  CHECK(r.model == "Samsung SSD 970 EVO Plus 1TB");
  CHECK(r.serial == "S4EWNX0R123456A");
  CHECK(r.firmware == "2B2QEXM7");
  CHECK(r.logical_block_size == 512u);
  CHECK_FALSE(r.physical_block_size);
  CHECK_FALSE(r.rotation_rate);
  CHECK(r.nvme_data_units_written == 61865984u);
  CHECK(r.smart_passed == true);
  const auto c = counters_from_smartctl(r);
  CHECK(c.host_bytes_written == 61865984ull * 512000);
  CHECK_FALSE(c.nand_bytes_written);
  CHECK(c.nand_source.empty());
}

TEST_CASE("smartctl ATA sample: attributes by name, Micron page counts, SSD rotation rate 0") {
  const auto r = parse_smartctl_json(read_data_file("smartctl_ata_mx500.json"));
  REQUIRE(r.has_data);
  CHECK(r.protocol == "ATA");
  CHECK(r.model == "CT1000MX500SSD1");
  CHECK(r.physical_block_size == 4096u);
  CHECK(r.rotation_rate == 0u);
  CHECK(r.trim_supported == true);
  REQUIRE(r.ata_attributes.size() == 12);
  CHECK(r.ata_attributes.back().id == 248);
  CHECK(r.ata_attributes.back().name == "FTL_Program_Page_Count");
  const auto c = counters_from_smartctl(r);
  CHECK(c.host_bytes_written == 41735651712ull * 512);
  CHECK(c.host_source.find("246 Total_LBAs_Written") != std::string::npos);
  CHECK_FALSE(c.nand_bytes_written);  // page counts have no byte unit
  CHECK(c.host_program_pages == 1304864128u);
  CHECK(c.ftl_program_pages == 1856421907u);
}

TEST_CASE("smartctl Intel sample: 32 MiB host and NAND write units") {
  const auto r = parse_smartctl_json(read_data_file("smartctl_ata_intel_dc.json"));
  REQUIRE(r.has_data);  // exit status 64 (error log) still has data
  CHECK(smartctl_exit_status_bits(r.exit_status) == std::vector<std::string>{"device error log contains errors"});
  const auto c = counters_from_smartctl(r);
  CHECK(c.host_bytes_written == 2831415ull * 32 * 1024 * 1024);
  CHECK(c.nand_bytes_written == 5120331ull * 32 * 1024 * 1024);
  CHECK(c.nand_source == "smartctl ATA attribute 243 NAND_Writes_32MiB");
}

TEST_CASE("smartctl exit_status bit 1: no data, the message is kept") {
  const auto r = parse_smartctl_json(read_data_file("smartctl_open_failed.json"));
  REQUIRE(r.parsed);
  CHECK_FALSE(r.has_data);
  CHECK(r.exit_status == 2);
  REQUIRE(r.messages.size() == 1);
  CHECK(r.messages[0].find("Permission denied") != std::string::npos);
  CHECK(smartctl_exit_status_bits(2).front() == "device open failed or returned no IDENTIFY data");
  const auto c = counters_from_smartctl(r);
  CHECK_FALSE(c.host_bytes_written);
  const auto j = smartctl_summary_json(r);
  CHECK(j["has_data"] == false);
  CHECK(j["exit_status"] == 2);
}

TEST_CASE("ATA device statistics are preferred over attributes for host writes") {
  const std::string text = R"({"smartctl": {"exit_status": 0}, "logical_block_size": 4096,
    "ata_device_statistics": {"pages": [{"number": 1, "table": [
      {"offset": 24, "name": "Logical Sectors Written", "size": 6, "value": 1000}]}]},
    "ata_smart_attributes": {"table": [{"id": 241, "name": "Total_LBAs_Written", "raw": {"value": 5}},
                                       {"id": 233, "name": "Unknown_NAND_Counter", "raw": {"value": 7}}]}})";
  const auto r = parse_smartctl_json(text);
  CHECK(r.ata_logical_sectors_written == 1000u);
  const auto c = counters_from_smartctl(r);
  CHECK(c.host_bytes_written == 4096000u);
  CHECK_FALSE(c.nand_bytes_written);  // an attribute with an unknown unit is not used
}

TEST_CASE("Unexpected types and non-JSON text never throw") {
  CHECK_FALSE(parse_smartctl_json("").parsed);
  CHECK_FALSE(parse_smartctl_json("smartctl: command not found").parsed);
  CHECK_FALSE(parse_smartctl_json("[1, 2, 3]").parsed);
  CHECK_FALSE(parse_smartctl_json(R"({"model_name": "x"})").parsed);
  const auto odd = parse_smartctl_json(
      R"({"smartctl": 5, "model_name": 7, "logical_block_size": -1, "user_capacity": "big",
          "ata_smart_attributes": {"table": [1, {"raw": []}, {"id": "x", "name": 3}]},
          "nvme_smart_health_information_log": [], "ata_device_statistics": {"pages": {}}})");
  CHECK(odd.parsed);
  CHECK(odd.has_data);
  CHECK(odd.model.empty());
  CHECK_FALSE(odd.logical_block_size);
  CHECK(odd.ata_attributes.size() == 3);
  CHECK_FALSE(odd.ata_attributes[1].raw);
  CHECK_NOTHROW(smartctl_summary_json(odd));
}
