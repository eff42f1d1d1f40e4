// What Linux 6.1 should show in sysfs for an NVMe namespace, the comparison
// with sysfs, and the firmware-only findings.
#include "firmware/nvme_expectations.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "firmware_test_util.h"

using namespace ssdprobe;
using firmware_test::nvme_controller;
using firmware_test::nvme_namespace;
using firmware_test::Page;

namespace {

const Mismatch* find(const std::vector<Mismatch>& list, const std::string& field) {
  auto it = std::find_if(list.begin(), list.end(), [&](const Mismatch& m) { return m.field == field; });
  return it == list.end() ? nullptr : &*it;
}

std::optional<int64_t> expected(const SysfsExpectation& e, const std::string& field) {
  for (const auto& f : e.fields)
    if (f.name == field) return f.value;
  return std::nullopt;
}

Topology sysfs(uint64_t logical, uint64_t physical, uint64_t io_min, uint64_t io_opt, const std::string& kernel) {
  Topology t;
  t.disk_name = "nvme0n1";
  t.transport = "nvme";
  t.kernel_version = kernel;
  t.logical_block_size = logical;
  t.physical_block_size = physical;
  t.minimum_io_size = io_min;
  t.optimal_io_size = io_opt;
  return t;
}

// 4 KiB LBA, NSFEAT bit 4, NPWG=3 (16 KiB), NOWS=31 (128 KiB).
NvmeIdNs npwg3_namespace(uint8_t nsfeat = 0x10) {
  Page p = nvme_namespace({{12, 0, 0}}, 0, nsfeat);
  p.le16(64, 3).le16(72, 31);
  return *decode_nvme_id_ns(p.bytes());
}

}  // namespace

TEST_CASE("NPWG=3 on a 4 KiB LBA: Linux 6.1 shows minimum_io_size 16384, physical limited by AWUPF") {
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 0).bytes());
  const SysfsExpectation e = expected_nvme_sysfs(&*ctrl, npwg3_namespace());
  CHECK(e.kernel_model == "6.1");
  CHECK(expected(e, "logical_block_size") == 4096);
  CHECK(expected(e, "minimum_io_size") == 16384);
  CHECK(expected(e, "optimal_io_size") == 131072);
  CHECK(expected(e, "physical_block_size") == 4096);  // AWUPF=0: one LBA is atomic
  CHECK(expected(e, "discard_granularity") == 4096);
}

TEST_CASE("NPWG=3 with sysfs minimum_io_size 4096 is a mismatch on minimum_io_size") {
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 0).bytes());
  const SysfsExpectation e = expected_nvme_sysfs(&*ctrl, npwg3_namespace());
  const auto mismatches = compare_with_sysfs(e, sysfs(4096, 4096, 4096, 131072, "6.1.0-18-amd64"));
  REQUIRE(mismatches.size() == 1);
  const Mismatch& m = mismatches.front();
  CHECK(m.field == "minimum_io_size");
  CHECK(m.reported == 4096);
  CHECK(m.detected == 16384);
  CHECK(m.severity == Severity::warning);
  CHECK(m.message.find("NPWG=3") != std::string::npos);
}

TEST_CASE("On a kernel other than 6.1 the same difference is informational") {
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 0).bytes());
  const auto mismatches =
      compare_with_sysfs(expected_nvme_sysfs(&*ctrl, npwg3_namespace()), sysfs(4096, 4096, 4096, 131072, "6.18.0"));
  REQUIRE(mismatches.size() == 1);
  CHECK(mismatches.front().severity == Severity::info);
  CHECK(kernel_matches_model("6.1", "6.1"));
  CHECK(kernel_matches_model("6.1.0-18-amd64", "6.1"));
  CHECK_FALSE(kernel_matches_model("6.10.2", "6.1"));
}

TEST_CASE("A matching sysfs gives no mismatch") {
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 3).bytes());
  const auto e = expected_nvme_sysfs(&*ctrl, npwg3_namespace());
  CHECK(expected(e, "physical_block_size") == 16384);  // min(16384, (3+1) × 4096)
  CHECK(compare_with_sysfs(e, sysfs(4096, 16384, 16384, 131072, "6.1.0")).empty());
}

TEST_CASE("NAWUPF with NSFEAT bit 1 limits the physical block size; NABO disables it") {
  Page p = nvme_namespace({{9, 0, 0}}, 0, 0x12);
  p.le16(64, 31).le16(72, 255).le16(36, 7);
  auto ns = *decode_nvme_id_ns(p.bytes());
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 63).bytes());
  CHECK(expected(expected_nvme_sysfs(&*ctrl, ns), "physical_block_size") == 4096);  // (7+1) × 512
  ns.nabo = 1;
  CHECK(expected(expected_nvme_sysfs(&*ctrl, ns), "physical_block_size") == 512);
}

TEST_CASE("NSFEAT bit 4 clear: minimum_io_size is one LBA and optimal_io_size 0") {
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 0).bytes());
  const auto e = expected_nvme_sysfs(&*ctrl, npwg3_namespace(0x00));
  CHECK(expected(e, "minimum_io_size") == 4096);
  CHECK(expected(e, "optimal_io_size") == 0);
}

TEST_CASE("Without Identify Controller there is no physical or discard expectation") {
  const auto e = expected_nvme_sysfs(nullptr, npwg3_namespace());
  CHECK_FALSE(expected(e, "physical_block_size"));
  CHECK_FALSE(expected(e, "discard_granularity"));
  CHECK(expected(e, "minimum_io_size") == 16384);
}

TEST_CASE("LBAs above 4 KiB get no expectation (6.1 cannot use them)") {
  const auto ns = *decode_nvme_id_ns(nvme_namespace({{14, 0, 0}}, 0, 0x10).bytes());
  CHECK(expected_nvme_sysfs(nullptr, ns).fields.empty());
}

TEST_CASE("NOWS=0 is flagged") {
  Page p = nvme_namespace({{12, 0, 0}}, 0, 0x10);
  p.le16(64, 3);
  const auto findings = nvme_firmware_findings(*decode_nvme_id_ns(p.bytes()), std::nullopt);
  const Mismatch* nows = find(findings, "nows");
  REQUIRE(nows);
  CHECK(nows->severity == Severity::info);
  CHECK(nows->reported == 4096);
  CHECK_FALSE(find(findings, "npwg"));
  CHECK_FALSE(find(findings, "nsfeat"));
}

TEST_CASE("NPWG=0 while the measured unit is larger than the LBA is flagged on npwg") {
  Page p = nvme_namespace({{12, 0, 0}}, 0, 0x10);
  p.le16(72, 7);
  const auto ns = *decode_nvme_id_ns(p.bytes());
  const auto findings = nvme_firmware_findings(ns, 16384);
  const Mismatch* npwg = find(findings, "npwg");
  REQUIRE(npwg);
  CHECK(npwg->severity == Severity::warning);
  CHECK(npwg->reported == 4096);
  CHECK(npwg->detected == 16384);
  CHECK_FALSE(find(nvme_firmware_findings(ns, 4096), "npwg"));
  CHECK_FALSE(find(nvme_firmware_findings(ns, std::nullopt), "npwg"));
}

TEST_CASE("NSFEAT bit 4 clear while the measured unit is larger is flagged on nsfeat") {
  const auto ns = *decode_nvme_id_ns(nvme_namespace({{9, 0, 0}}, 0, 0x00).bytes());
  const auto findings = nvme_firmware_findings(ns, 16384);
  const Mismatch* nsfeat = find(findings, "nsfeat");
  REQUIRE(nsfeat);
  CHECK(nsfeat->reported == 512);
  CHECK(nsfeat->detected == 16384);
  CHECK_FALSE(find(findings, "npwg"));
}

TEST_CASE("An LBA format with better relative performance and the same metadata is flagged") {
  // In use: 512 B, RP=2 (good). Offered: 4 KiB RP=0 (best), 4 KiB+8 B metadata RP=0, 512 B+8 B RP=0.
  const auto ns = *decode_nvme_id_ns(nvme_namespace({{9, 0, 2}, {12, 0, 0}, {12, 8, 0}, {9, 8, 0}}, 0, 0).bytes());
  const auto findings = nvme_firmware_findings(ns, std::nullopt);
  const Mismatch* flbas = find(findings, "flbas");
  REQUIRE(flbas);
  CHECK(flbas->reported == 512);
  CHECK(flbas->detected == 4096);
  CHECK(flbas->message.find("--lbaf=1") != std::string::npos);
}

TEST_CASE("No flbas finding when the format in use is already the best") {
  const auto ns = *decode_nvme_id_ns(nvme_namespace({{9, 0, 2}, {12, 0, 0}}, 1, 0).bytes());
  CHECK_FALSE(find(nvme_firmware_findings(ns, std::nullopt), "flbas"));
  const auto other_metadata = *decode_nvme_id_ns(nvme_namespace({{9, 0, 2}, {12, 8, 0}}, 0, 0).bytes());
  CHECK_FALSE(find(nvme_firmware_findings(other_metadata, std::nullopt), "flbas"));
}

TEST_CASE("NOIOB that is not a power of two is flagged") {
  Page p = nvme_namespace({{9, 0, 0}}, 0, 0x10);
  p.le16(72, 7).le16(46, 96);
  const auto findings = nvme_firmware_findings(*decode_nvme_id_ns(p.bytes()), std::nullopt);
  const Mismatch* noiob = find(findings, "noiob");
  REQUIRE(noiob);
  CHECK(noiob->reported == 96 * 512);
  p.le16(46, 256);
  CHECK_FALSE(find(nvme_firmware_findings(*decode_nvme_id_ns(p.bytes()), std::nullopt), "noiob"));
}

TEST_CASE("sysfs values are looked up by name; partitions keep their own alignment") {
  Topology t = sysfs(512, 4096, 4096, 0, "6.1");
  t.alignment_offset = 0;
  t.rotational = false;
  CHECK(sysfs_value(t, "rotational") == 0);
  CHECK(sysfs_value(t, "alignment_offset") == 0);
  CHECK_FALSE(sysfs_value(t, "no_such_field"));
  t.partition_name = "nvme0n1p1";
  CHECK_FALSE(sysfs_value(t, "alignment_offset"));
}

TEST_CASE("Regression from the QEMU guest notes: emulated namespace with NSFEAT=0x14, NPWG=NOWS=0") {
  // PLATFORM.md: QEMU 7.2 reports NSFEAT=0x14 and NPWG=NPWA=NOWS=0 whatever
  // physical_block_size it was given: a drive that under-reports its unit.
  const auto ns = *decode_nvme_id_ns(nvme_namespace({{9, 0, 0}, {12, 0, 0}}, 1, 0x14).bytes());
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(7, 0).bytes());
  const auto e = expected_nvme_sysfs(&*ctrl, ns);
  CHECK(expected(e, "minimum_io_size") == 4096);
  CHECK(expected(e, "optimal_io_size") == 4096);
  CHECK(expected(e, "physical_block_size") == 4096);
  const auto findings = nvme_firmware_findings(ns, 16384);
  CHECK(find(findings, "npwg"));
  CHECK(find(findings, "nows"));
}

TEST_CASE("Regression from the QEMU guest notes: NVMe-oF loopback with NPWG=31, NOWS=255, NAWUPF=31") {
  // PLATFORM.md: 512 B LBAs, sysfs 512/16384/16384/131072 on the 6.1 guest.
  Page p = nvme_namespace({{9, 0, 0}}, 0, 0x12);
  p.le16(64, 31).le16(66, 31).le16(72, 255).le16(34, 31).le16(36, 31);
  const auto ctrl = decode_nvme_id_ctrl(nvme_controller(5, 0).bytes());
  const auto e = expected_nvme_sysfs(&*ctrl, *decode_nvme_id_ns(p.bytes()));
  CHECK(compare_with_sysfs(e, sysfs(512, 16384, 16384, 131072, "6.1.0-13-amd64")).empty());
}
