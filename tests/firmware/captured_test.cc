// Buffers captured from QEMU 7.2's emulated NVMe controller and AHCI disk in
// a Linux 6.1 guest (tests/data/firmware/README.md): every decoded value must
// equal what QEMU was configured with, and the expectations must match the
// sysfs the guest showed.
#include <catch2/catch.hpp>

#include "firmware/ata_identify.h"
#include "firmware/ata_scsi_expectations.h"
#include "firmware/nvme_expectations.h"
#include "firmware/nvme_identify.h"
#include "firmware/nvme_logs.h"
#include "firmware/nvme_reported.h"
#include "firmware/scsi_pages.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;

namespace {

std::vector<uint8_t> captured(const std::string& name) {
  const std::string text = firmware_test::read_data_file(name);
  return std::vector<uint8_t>(text.begin(), text.end());
}

Topology guest_sysfs(uint64_t logical, uint64_t physical, uint64_t io_min, uint64_t io_opt) {
  Topology t;
  t.kernel_version = "6.1.0-56-amd64";
  t.logical_block_size = logical;
  t.physical_block_size = physical;
  t.minimum_io_size = io_min;
  t.optimal_io_size = io_opt;
  return t;
}

}  // namespace

TEST_CASE("QEMU NVMe: Identify Controller as configured (serial, MDTS 7)") {
  const auto ctrl = decode_nvme_id_ctrl(captured("qemu72_nvme_id_ctrl.bin"));
  REQUIRE(ctrl);
  CHECK(ctrl->mn == "QEMU NVMe Ctrl");
  CHECK(ctrl->sn == "NVMESER1");
  CHECK(ctrl->fr == "7.2.22");
  CHECK(ctrl->vid == 0x1b36);
  CHECK(ctrl->mdts == 7);
  CHECK(nvme_version_string(ctrl->ver) == "1.4.0");
  CHECK(ctrl->subnqn == "nqn.2019-08.org.qemu:NVMESER1");
  CHECK(derive_nvme_sizes(&*ctrl, nullptr, nullptr).mdts_bytes == 524288u);
}

TEST_CASE("QEMU NVMe: Identify Namespace with the 4 KiB format in use and NPWG=NOWS=0") {
  const auto ns = decode_nvme_id_ns(captured("qemu72_nvme_id_ns_4k.bin"));
  REQUIRE(ns);
  CHECK(ns->nsze == 16384);  // 64 MiB / 4 KiB
  CHECK(ns->nsfeat == 0x14);
  CHECK(ns->lbaf_in_use() == 4);
  CHECK(ns->lba_bytes() == 4096u);
  REQUIRE(ns->lbaf.size() == 8);
  CHECK(ns->lbaf[0].ds == 9);
  CHECK(ns->lbaf[5].ms == 8);
  CHECK(ns->npwg == 0);
  CHECK(ns->nows == 0);
  const auto nvm = decode_nvme_nvm_id_ns(captured("qemu72_nvme_nvm_id_ns.bin"));
  REQUIRE(nvm);
  CHECK(nvm->npdgl == 0);
}

TEST_CASE("QEMU NVMe: expectations match the guest's sysfs, findings name the under-reporting") {
  const auto ctrl = decode_nvme_id_ctrl(captured("qemu72_nvme_id_ctrl.bin"));
  const auto ns = *decode_nvme_id_ns(captured("qemu72_nvme_id_ns_4k.bin"));
  const auto e = expected_nvme_sysfs(&*ctrl, ns);
  CHECK(compare_with_sysfs(e, guest_sysfs(4096, 4096, 4096, 4096)).empty());
  const auto findings = nvme_firmware_findings(ns, 16384);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].field == "npwg");
  CHECK(findings[1].field == "nows");
}

TEST_CASE("QEMU NVMe: SMART log and reported.nvme") {
  NvmeFirmwareData data;
  data.ctrl = decode_nvme_id_ctrl(captured("qemu72_nvme_id_ctrl.bin"));
  data.ns = decode_nvme_id_ns(captured("qemu72_nvme_id_ns_4k.bin"));
  data.nsid = 1;
  data.smart = decode_nvme_smart_log(captured("qemu72_nvme_smart_log.bin"));
  REQUIRE(data.smart);
  CHECK(data.smart->composite_temperature > 273);
  CHECK_FALSE(is_ocp_smart_log(captured("qemu72_nvme_smart_log.bin")));
  const auto j = nvme_reported_json(data);
  CHECK(j["model"] == "QEMU NVMe Ctrl");
  CHECK(j["lba_bytes"] == 4096);
  CHECK(j["npwg_bytes"] == 4096);
  CHECK(j["nsze_bytes"] == 67108864);
  CHECK(j["mdts_bytes"] == 524288);
}

TEST_CASE("QEMU AHCI disk: IDENTIFY DEVICE as configured (16 KiB physical, SSD, strings)") {
  const auto id = decode_ata_identify(captured("qemu72_ata_identify_16k.bin"));
  REQUIRE(id);
  CHECK(id->model == "SSDPROBE-SATA");
  CHECK(id->serial == "SATA123");
  CHECK(id->firmware == "FW42");
  CHECK(id->word106 == 0x6005);
  CHECK(id->logical_sector_bytes == 512);
  CHECK(id->physical_sector_bytes == 16384);
  CHECK(id->rotation_rate == 1);
  CHECK(id->trim_supported);
  CHECK(id->capacity_sectors == 131072);
  CHECK_FALSE(id->checksum_present);
  Topology t = guest_sysfs(512, 16384, 16384, 0);
  t.rotational = false;
  CHECK(compare_with_sysfs(expected_ata_sysfs(*id), t).empty());
}

TEST_CASE("QEMU AHCI disk: libata's SCSI translation agrees with IDENTIFY") {
  const auto capacity = decode_read_capacity16(captured("qemu72_scsi_read_capacity16.bin"));
  REQUIRE(capacity);
  CHECK(capacity->block_length == 512);
  CHECK(capacity->capacity_bytes() == 67108864u);
  CHECK(capacity->physical_block_bytes() == 16384u);
  CHECK(capacity->lbpme);
  const auto limits = decode_block_limits_vpd(captured("qemu72_scsi_vpd_b0.bin"));
  REQUIRE(limits);
  CHECK(limits->optimal_transfer_length_granularity == 32);
  CHECK(limits->optimal_unmap_granularity == 1u);
  CHECK(decode_unit_serial_vpd(captured("qemu72_scsi_vpd_80.bin")) == std::string("SATA123"));
  const auto inquiry = decode_standard_inquiry(captured("qemu72_scsi_inquiry.bin"));
  REQUIRE(inquiry);
  CHECK(inquiry->vendor == "ATA");
  CHECK(inquiry->product == "SSDPROBE-SATA");
  CHECK(compare_with_sysfs(expected_scsi_sysfs(*capacity, limits), guest_sysfs(512, 16384, 16384, 0)).empty());
}
