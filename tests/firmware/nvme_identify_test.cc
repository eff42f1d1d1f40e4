// NVMe Identify Controller / Namespace / NVM command set page, SMART and OCP
// log decoding from hand-built pages, and the reported.nvme JSON.
#include "firmware/nvme_identify.h"

#include <catch2/catch.hpp>

#include "firmware/nvme_logs.h"
#include "firmware/nvme_reported.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using firmware_test::nvme_controller;
using firmware_test::nvme_namespace;
using firmware_test::Page;

TEST_CASE("Identify Controller: identity strings trimmed, limits decoded") {
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(7, 3, 0x000c).bytes());
  REQUIRE(ctrl);
  CHECK(ctrl->vid == 0x1b36);
  CHECK(ctrl->ssvid == 0x1af4);
  CHECK(ctrl->sn == "SN-1234");
  CHECK(ctrl->mn == "Example NVMe SSD");
  CHECK(ctrl->fr == "FW1.0");
  CHECK(ctrl->mdts == 7);
  CHECK(ctrl->awupf == 3);
  CHECK(ctrl->oncs == 0x000c);
  CHECK(ctrl->oacs == 0x000a);
  CHECK(nvme_version_string(ctrl->ver) == "1.4.0");
}

TEST_CASE("Identify Controller: a short buffer is not an Identify page") {
  CHECK_FALSE(decode_nvme_id_ctrl(std::vector<uint8_t>(4095)));
  CHECK_FALSE(decode_nvme_id_ns(std::vector<uint8_t>(100)));
  CHECK(decode_nvme_id_ctrl(std::vector<uint8_t>(8192)));
}

TEST_CASE("Identify Namespace: fields at their spec offsets") {
  Page p = nvme_namespace({{9, 0, 2}, {12, 0, 0}}, 0x01, 0x12);
  p.le16(34, 7).le16(36, 3).le16(38, 1).le16(40, 15).le16(42, 0).le16(44, 7).le16(46, 64);
  p.le16(64, 3).le16(66, 3).le16(68, 1).le16(70, 1).le16(72, 31);
  p.le(48, 0x1234, 16);
  const auto ns = decode_nvme_id_ns(p.bytes());
  REQUIRE(ns);
  CHECK(ns->nsze == 1000000);
  CHECK(ns->nuse == 500000);
  CHECK(ns->nsfeat == 0x12);
  CHECK(ns->nlbaf == 1);
  REQUIRE(ns->lbaf.size() == 2);
  CHECK(ns->lbaf[0].ds == 9);
  CHECK(ns->lbaf[0].rp == 2);
  CHECK(ns->lbaf[1].ds == 12);
  CHECK(ns->lbaf_in_use() == 1);
  CHECK(ns->lba_bytes() == 4096u);
  CHECK(ns->nawun == 7);
  CHECK(ns->nawupf == 3);
  CHECK(ns->nacwu == 1);
  CHECK(ns->nabsn == 15);
  CHECK(ns->nabspf == 7);
  CHECK(ns->noiob == 64);
  CHECK(ns->npwg == 3);
  CHECK(ns->npwa == 3);
  CHECK(ns->npdg == 1);
  CHECK(ns->npda == 1);
  CHECK(ns->nows == 31);
  CHECK(ns->nvmcap == 0x1234);
}

TEST_CASE("FLBAS bits 6:5 extend the format index above 15") {
  std::vector<firmware_test::LbaFormatSpec> formats(20, {9, 0, 0});
  formats[17] = {12, 0, 0};
  const auto ns = decode_nvme_id_ns(nvme_namespace(formats, 0x21, 0).bytes());  // index 1 | (1 << 4) = 17
  REQUIRE(ns);
  CHECK(ns->lbaf_in_use() == 17);
  CHECK(ns->lba_bytes() == 4096u);
}

TEST_CASE("An LBA format index outside the list has no LBA size") {
  const auto ns = decode_nvme_id_ns(nvme_namespace({{9, 0, 0}}, 0x05, 0).bytes());
  REQUIRE(ns);
  CHECK_FALSE(ns->lba_bytes());
  const auto sizes = derive_nvme_sizes(nullptr, &*ns, nullptr);
  CHECK_FALSE(sizes.lba_bytes);
  CHECK_FALSE(sizes.nsze_bytes);
}

TEST_CASE("Derived sizes: NSFEAT bit 4 set gives NPWG..NOWS in bytes") {
  Page p = nvme_namespace({{12, 0, 0}}, 0, 0x10);
  p.le16(64, 3).le16(66, 1).le16(68, 7).le16(70, 7).le16(72, 31).le16(46, 32);
  const auto ns = decode_nvme_id_ns(p.bytes());
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 1).bytes());
  const auto s = derive_nvme_sizes(&*ctrl, &*ns, nullptr);
  CHECK(s.lba_bytes == 4096u);
  CHECK(s.npwg_bytes == 16384u);
  CHECK(s.npwa_bytes == 8192u);
  CHECK(s.npdg_bytes == 32768u);
  CHECK(s.npda_bytes == 32768u);
  CHECK(s.nows_bytes == 131072u);
  CHECK(s.noiob_bytes == 131072u);
  CHECK(s.mdts_bytes == 131072u);  // 2^5 × 4096
  CHECK(s.awupf_bytes == 8192u);
  CHECK(s.nsze_bytes == 1000000ull * 4096);
  CHECK_FALSE(s.nawupf_bytes);  // NSFEAT bit 1 clear
}

TEST_CASE("Derived sizes: NSFEAT bit 4 clear leaves NPWG..NOWS null, bit 1 gives atomics") {
  Page p = nvme_namespace({{9, 0, 0}}, 0, 0x02);
  p.le16(64, 31).le16(72, 255).le16(34, 7).le16(36, 7);
  const auto ns = decode_nvme_id_ns(p.bytes());
  const auto s = derive_nvme_sizes(nullptr, &*ns, nullptr);
  CHECK_FALSE(s.npwg_bytes);
  CHECK_FALSE(s.npwa_bytes);
  CHECK_FALSE(s.npdg_bytes);
  CHECK_FALSE(s.npda_bytes);
  CHECK_FALSE(s.nows_bytes);
  CHECK_FALSE(s.noiob_bytes);
  CHECK_FALSE(s.mdts_bytes);
  CHECK(s.nawun_bytes == 4096u);
  CHECK(s.nawupf_bytes == 4096u);
}

TEST_CASE("MDTS 0 means no limit and scales with the memory page size") {
  const auto unlimited = decode_nvme_id_ctrl(nvme_controller(0).bytes());
  CHECK_FALSE(derive_nvme_sizes(&*unlimited, nullptr, nullptr).mdts_bytes);
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(4).bytes());
  CHECK(derive_nvme_sizes(&*ctrl, nullptr, nullptr, 8192).mdts_bytes == 131072u);
}

TEST_CASE("NVM command set namespace page: NPDGL at 268, NPDAL at 284") {
  Page p(4096);
  p.le64(0, 0xff).u8(8, 3).le32(268, 64).le32(272, 8).le32(276, 8).le32(280, 32).le32(284, 16);
  const auto nvm = decode_nvme_nvm_id_ns(p.bytes());
  REQUIRE(nvm);
  CHECK(nvm->npdgl == 64);
  CHECK(nvm->nprg == 8);
  CHECK(nvm->npra == 8);
  CHECK(nvm->nors == 32);
  CHECK(nvm->npdal == 16);
  const auto ns = decode_nvme_id_ns(nvme_namespace({{12, 0, 0}}, 0, 0x10).bytes());
  const auto s = derive_nvme_sizes(nullptr, &*ns, &*nvm);
  CHECK(s.npdgl_bytes == 64u * 4096);
  CHECK(s.npdal_bytes == 16u * 4096);
}

TEST_CASE("SMART/Health log: 128-bit counters and data units in bytes") {
  Page p(512);
  p.u8(0, 0x04).le16(1, 310).u8(3, 100).u8(4, 10).u8(5, 7);
  p.le64(32, 1000).le64(48, 2000).le64(64, 3).le64(80, 4).le64(160, 5).le64(128, 6000);
  const auto log = decode_nvme_smart_log(p.bytes());
  REQUIRE(log);
  CHECK(log->critical_warning == 4);
  CHECK(log->composite_temperature == 310);
  CHECK(log->percentage_used == 7);
  CHECK(log->data_units_written == 2000);
  CHECK(log->media_errors == 5);
  CHECK(nvme_data_units_to_bytes(log->data_units_written) == 2000u * 512000u);
  const auto j = nvme_smart_json(*log);
  CHECK(j["data_units_written_bytes"] == 1024000000u);
  CHECK(j["power_on_hours"] == 6000);
}

TEST_CASE("SMART/Health log: counters beyond 64 bits become decimal strings") {
  Page p(512);
  p.le64(48, 5).le64(56, 1);  // 2^64 + 5 data units
  const auto log = decode_nvme_smart_log(p.bytes());
  const auto j = nvme_smart_json(*log);
  CHECK(j["data_units_written"] == "18446744073709551621");
  CHECK(j["data_units_written_bytes"].is_null());
}

TEST_CASE("OCP C0h: decoded only when the GUID matches") {
  Page p(512);
  p.le64(0, 123456789).le64(16, 987654321).le(32, 3, 6).le32(88, 40).le32(92, 2).le16(494, 3);
  for (size_t i = 0; i < kOcpSmartLogGuid.size(); ++i) p.u8(496 + i, kOcpSmartLogGuid[i]);
  REQUIRE(is_ocp_smart_log(p.bytes()));
  const auto log = decode_ocp_smart_log(p.bytes());
  REQUIRE(log);
  CHECK(log->physical_media_units_written == 123456789);
  CHECK(log->physical_media_units_read == 987654321);
  CHECK(log->bad_user_nand_blocks == 3);
  CHECK(log->user_data_erase_count_max == 40);
  CHECK(log->log_page_version == 3);
  p.u8(511, 0x00);
  CHECK_FALSE(is_ocp_smart_log(p.bytes()));
  CHECK_FALSE(decode_ocp_smart_log(p.bytes()));
}

TEST_CASE("reported.nvme: spec names, raw values, _bytes null where invalid") {
  Page p = nvme_namespace({{9, 0, 2}, {12, 0, 0}}, 0, 0x00);
  p.le16(64, 3).le16(72, 7);
  NvmeFirmwareData data;
  data.ctrl = decode_nvme_id_ctrl(nvme_controller(0).bytes());
  data.ns = decode_nvme_id_ns(p.bytes());
  data.nsid = 1;
  const auto j = nvme_reported_json(data);
  CHECK(j["model"] == "Example NVMe SSD");
  CHECK(j["serial"] == "SN-1234");
  CHECK(j["firmware"] == "FW1.0");
  CHECK(j["nsid"] == 1);
  CHECK(j["nsfeat"] == 0);
  CHECK(j["npwg"] == 3);             // raw value kept
  CHECK(j["npwg_bytes"].is_null());  // but NSFEAT bit 4 is clear
  CHECK(j["nows_bytes"].is_null());
  CHECK(j["nawupf_bytes"].is_null());
  CHECK(j["noiob"] == 0);
  CHECK(j["noiob_bytes"].is_null());
  CHECK(j["mdts"] == 0);
  CHECK(j["mdts_bytes"].is_null());
  CHECK(j["lba_bytes"] == 512);
  REQUIRE(j["lbaf"].size() == 2);
  CHECK(j["lbaf"][1] == nlohmann::ordered_json{{"ds", 12}, {"ms", 0}, {"rp", 0}});
  CHECK(j["oncs_bits"]["dataset_management"] == true);
  // The JSON's keys, in bit order, are a contract: the capability table
  // they are read from may grow, these may not change.
  auto keys = [](const nlohmann::ordered_json& o) {
    std::vector<std::string> k;
    for (const auto& item : o.items()) k.push_back(item.key());
    return k;
  };
  CHECK(keys(j["oacs_bits"]) == std::vector<std::string>{"security_send_receive", "format_nvm", "firmware_download",
                                                          "namespace_management", "device_self_test", "directives"});
  CHECK(keys(j["oncs_bits"]) == std::vector<std::string>{"compare", "write_uncorrectable", "dataset_management",
                                                          "write_zeroes", "save_select", "reservations", "timestamp",
                                                          "verify", "copy"});
  CHECK(j["nvm"].is_null());
  CHECK(j["smart"].is_null());
  CHECK(j["ocp"].is_null());
}

TEST_CASE("reported.nvme: NSFEAT bit 4 set fills npwg_bytes and friends") {
  Page p = nvme_namespace({{12, 0, 0}}, 0, 0x10);
  p.le16(64, 3).le16(66, 3).le16(72, 7);
  NvmeFirmwareData data;
  data.ns = decode_nvme_id_ns(p.bytes());
  const auto j = nvme_reported_json(data);
  CHECK(j["npwg_bytes"] == 16384);
  CHECK(j["nsfeat_bits"]["optperf"] == 1);
  CHECK(j["nsfeat_bits"]["nsabp"] == false);
  CHECK(j["npwa_bytes"] == 16384);
  CHECK(j["nows_bytes"] == 32768);
  CHECK(j["model"].is_null());
  CHECK(j["identify_ctrl"] == false);
  CHECK_FALSE(j.contains("mdts"));
}
