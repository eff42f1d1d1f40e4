// The firmware probe end to end with scripted backends: an NVMe namespace
// with hand-built Identify data, a SATA disk with an IDENTIFY sector, missing
// permissions and tools, targets without firmware, and write counters.
#include "firmware/firmware_query.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "core/error.h"
#include "firmware/nvme_logs.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using firmware_test::AtaSector;
using firmware_test::nvme_controller;
using firmware_test::nvme_namespace;
using firmware_test::Page;
using firmware_test::TempTree;

namespace {

// Records what it was asked; answers with the pages it holds, or throws.
class FakeNvmeAdmin : public NvmeAdmin {
 public:
  std::vector<uint8_t> ctrl, ns, nvm, smart, c0;
  std::optional<Error> fail_all;
  std::vector<std::string>* calls = nullptr;

  std::vector<uint8_t> identify_ctrl() override { return answer("identify_ctrl", ctrl); }
  std::vector<uint8_t> identify_ns(uint32_t nsid) override { return answer("identify_ns " + std::to_string(nsid), ns); }
  std::vector<uint8_t> identify_ns_nvm(uint32_t) override { return answer("identify_ns_nvm", nvm); }
  std::vector<uint8_t> smart_log() override { return answer("smart_log", smart); }
  std::vector<uint8_t> log_page(uint8_t lid, uint32_t) override { return answer("log_page " + std::to_string(lid), c0); }
  std::optional<uint32_t> nsid() override { return 1; }

 private:
  std::vector<uint8_t> answer(const std::string& what, const std::vector<uint8_t>& page) {
    if (calls) calls->push_back(what);
    if (fail_all) throw *fail_all;
    if (page.empty()) throw Error(ErrorCategory::unsupported, what + ": Invalid Log Page");
    return page;
  }
};

class FakeSgioAdmin : public SgioAdmin {
 public:
  std::map<std::string, std::vector<uint8_t>> pages;
  std::optional<Error> ata_error;

  std::vector<uint8_t> ata_identify() override {
    if (ata_error) throw *ata_error;
    return get("ata");
  }
  std::vector<uint8_t> read_capacity16() override { return get("rc16"); }
  std::vector<uint8_t> inquiry() override { return get("inquiry"); }
  std::vector<uint8_t> inquiry_vpd(uint8_t page) override { return get(page == 0x80 ? "vpd80" : "vpdb0"); }

 private:
  std::vector<uint8_t> get(const std::string& name) {
    auto it = pages.find(name);
    if (it == pages.end()) throw Error(ErrorCategory::unsupported, name + ": ILLEGAL REQUEST");
    return it->second;
  }
};

Page ocp_page(uint64_t media_written) {
  Page p(512);
  p.le64(0, media_written);
  for (size_t i = 0; i < kOcpSmartLogGuid.size(); ++i) p.u8(496 + i, kOcpSmartLogGuid[i]);
  return p;
}

Page smart_page(uint64_t units_written) {
  Page p(512);
  p.le64(48, units_written);
  return p;
}

// The shared fake NVMe sysfs, with the namespace's generic node ng0n1.
void build_nvme_sysfs_with_generic(const TempTree& sys) {
  firmware_test::build_nvme_sysfs(sys);
  sys.dir("class/nvme-generic/ng0n1");
}

Topology nvme_topology() {
  Topology t;
  t.disk_name = "nvme0n1";
  t.transport = "nvme";
  t.kernel_version = "6.1.0-18-amd64";
  t.model = "sysfs model";
  t.logical_block_size = 4096;
  t.physical_block_size = 4096;
  t.minimum_io_size = 4096;
  t.optimal_io_size = 4096;
  return t;
}

Topology sata_topology() {
  Topology t;
  t.disk_name = "sda";
  t.partition_name = "sda1";
  t.transport = "sata";
  t.kernel_version = "6.1.0";
  t.logical_block_size = 512;
  t.physical_block_size = 4096;
  t.minimum_io_size = 4096;
  t.optimal_io_size = 0;
  t.rotational = false;
  return t;
}

struct Harness {
  TempTree sys;
  std::vector<std::string> calls, opened, smartctl_devices;
  FirmwareBackends backends;
  std::function<std::unique_ptr<NvmeAdmin>()> make_nvme;
  std::function<std::unique_ptr<SgioAdmin>()> make_sgio;
  SmartctlRun smartctl{false, -1, false, "", "smartctl not installed (not found in PATH)"};

  Harness() {
    backends.sysfs_root = sys.root().string();
    backends.open_nvme = [this](const std::string& path) {
      opened.push_back(path);
      return make_nvme();
    };
    backends.open_sgio = [this](const std::string& path) {
      opened.push_back(path);
      return make_sgio();
    };
    backends.run_smartctl = [this](const std::string& device) {
      smartctl_devices.push_back(device);
      return smartctl;
    };
  }
};

const Mismatch* find(const std::vector<Mismatch>& list, const std::string& field) {
  auto it = std::find_if(list.begin(), list.end(), [&](const Mismatch& m) { return m.field == field; });
  return it == list.end() ? nullptr : &*it;
}

bool has_note(const FirmwareReport& r, const std::string& text) {
  return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

std::unique_ptr<FakeNvmeAdmin> npwg3_drive(std::vector<std::string>* calls) {
  auto admin = std::make_unique<FakeNvmeAdmin>();
  Page ns = nvme_namespace({{9, 0, 2}, {12, 0, 0}}, 1, 0x10);
  ns.le16(64, 3).le16(66, 3);  // NPWG=NPWA=3 (16 KiB), NOWS=0
  admin->ctrl = nvme_controller(5, 0).bytes();
  admin->ns = ns.bytes();
  admin->smart = smart_page(1000).bytes();
  admin->c0 = ocp_page(777000000).bytes();
  admin->calls = calls;
  return admin;
}

}  // namespace

TEST_CASE("NVMe: Identify, logs, smartctl and mismatches in one report") {
  Harness h;
  build_nvme_sysfs_with_generic(h.sys);
  h.make_nvme = [&] { return npwg3_drive(&h.calls); };
  h.smartctl = SmartctlRun{true, 0, false, firmware_test::read_data_file("smartctl_nvme_970evo.json"), ""};
  const FirmwareReport r = query_firmware("/dev/nvme0n1", nvme_topology(), 32768, h.backends);
  CHECK(h.opened == std::vector<std::string>{"/dev/nvme0n1"});
  CHECK(h.smartctl_devices == std::vector<std::string>{"/dev/nvme0n1"});
  CHECK(h.calls == std::vector<std::string>{"identify_ctrl", "identify_ns 1", "identify_ns_nvm", "smart_log",
                                            "log_page 192"});
  CHECK(r.model == "Example NVMe SSD");
  CHECK(r.identity_source == "NVMe Identify Controller");
  REQUIRE(r.nvme);
  const auto nvme = nvme_reported_json(*r.nvme);
  CHECK(nvme["npwg_bytes"] == 16384);
  CHECK(nvme["nsid"] == 1);
  CHECK(nvme["smart"]["data_units_written"] == 1000);
  CHECK(nvme["ocp"]["physical_media_units_written"] == 777000000);
  CHECK(nvme["nvm"].is_null());
  CHECK_FALSE(r.ata);
  REQUIRE(r.smart);
  CHECK(smartctl_summary_json(*r.smart)["model_name"] == "Samsung SSD 970 EVO Plus 1TB");
  REQUIRE(r.expectations.size() == 1);
  const Mismatch* io_min = find(r.mismatches, "minimum_io_size");
  REQUIRE(io_min);
  CHECK(io_min->reported == 4096);
  CHECK(io_min->detected == 16384);
  CHECK(find(r.mismatches, "nows"));
  CHECK(find(r.mismatches, "npwg"));  // measured 32 KiB > 16 KiB
  CHECK_FALSE(find(r.mismatches, "flbas"));
  CHECK(has_note(r, "CNS 05h"));
}

TEST_CASE("NVMe without CAP_SYS_ADMIN: one note naming the capability, sysfs identity, run goes on") {
  Harness h;
  build_nvme_sysfs_with_generic(h.sys);
  h.make_nvme = [&] {
    auto admin = npwg3_drive(&h.calls);
    admin->fail_all = Error(ErrorCategory::permission,
                            "Identify Controller on /dev/nvme0n1: NVMe passthrough needs CAP_SYS_ADMIN (run as root)");
    return admin;
  };
  FirmwareReport r;
  REQUIRE_NOTHROW(r = query_firmware("/dev/nvme0n1p1", nvme_topology(), std::nullopt, h.backends));
  CHECK(h.calls == std::vector<std::string>{"identify_ctrl"});
  CHECK_FALSE(r.nvme);
  CHECK(has_note(r, "NVMe passthrough needs CAP_SYS_ADMIN"));
  CHECK(has_note(r, "smartctl not installed"));
  CHECK(r.identity_source == "sysfs");
  CHECK(r.model == "sysfs model");
  CHECK(r.mismatches.empty());
}

TEST_CASE("NVMe: opening the node refused is a note too") {
  Harness h;
  build_nvme_sysfs_with_generic(h.sys);
  h.make_nvme = []() -> std::unique_ptr<NvmeAdmin> {
    throw Error(ErrorCategory::permission, "open /dev/nvme0n1: NVMe passthrough needs CAP_SYS_ADMIN");
  };
  const FirmwareReport r = query_firmware("/dev/nvme0n1", nvme_topology(), std::nullopt, h.backends);
  CHECK(has_note(r, "CAP_SYS_ADMIN"));
  CHECK_FALSE(r.nvme);
}

TEST_CASE("NVMe: a C0h page from another vendor is not decoded as OCP") {
  Harness h;
  build_nvme_sysfs_with_generic(h.sys);
  h.make_nvme = [&] {
    auto admin = npwg3_drive(nullptr);
    admin->c0 = Page(512).bytes();
    return admin;
  };
  const FirmwareReport r = query_firmware("/dev/ng0n1", nvme_topology(), std::nullopt, h.backends);
  REQUIRE(r.nvme);
  CHECK(nvme_reported_json(*r.nvme)["ocp"].is_null());
  CHECK(has_note(r, "GUID differs"));
}

TEST_CASE("SATA: IDENTIFY, SCSI pages, libata expectations, smartctl on the whole disk") {
  Harness h;
  h.make_sgio = [] {
    auto admin = std::make_unique<FakeSgioAdmin>();
    AtaSector s;
    s.text(10, 10, "QM00005").text(23, 4, "2.5+").text(27, 20, "QEMU HARDDISK");
    s.word(106, 0x6005).word(169, 1).word(217, 1).seal();  // 16 KiB physical
    admin->pages["ata"] = s.bytes();
    Page rc(32);
    rc.be(0, 2097151, 8).be(8, 512, 4).u8(13, 5);
    admin->pages["rc16"] = rc.bytes();
    return admin;
  };
  const FirmwareReport r = query_firmware("/dev/sda1", sata_topology(), std::nullopt, h.backends);
  CHECK(h.opened == std::vector<std::string>{"/dev/sda"});
  CHECK(h.smartctl_devices == std::vector<std::string>{"/dev/sda"});
  REQUIRE(r.ata);
  CHECK(ata_reported_json(*r.ata)["model"] == "QEMU HARDDISK");
  CHECK(ata_reported_json(*r.ata)["physical_sector_bytes"] == 16384);
  REQUIRE(r.scsi);
  CHECK(scsi_reported_json(*r.scsi)["read_capacity16"]["physical_block_bytes"] == 16384);
  CHECK(scsi_reported_json(*r.scsi)["inquiry"].is_null());
  CHECK(r.identity_source == "ATA IDENTIFY DEVICE");
  CHECK(r.serial == "QM00005");
  const Mismatch* physical = find(r.mismatches, "physical_block_size");
  REQUIRE(physical);
  CHECK(physical->reported == 4096);
  CHECK(physical->detected == 16384);
  CHECK(find(r.mismatches, "minimum_io_size"));
  CHECK(has_note(r, "ILLEGAL REQUEST"));
}

TEST_CASE("SATA without CAP_SYS_RAWIO: the SCSI commands still run") {
  Harness h;
  h.make_sgio = [] {
    auto admin = std::make_unique<FakeSgioAdmin>();
    admin->ata_error = Error(ErrorCategory::permission, "ATA PASS-THROUGH(16) IDENTIFY DEVICE on /dev/sda: "
                                                        "ATA/SCSI pass-through needs CAP_SYS_RAWIO");
    Page inquiry(36);
    inquiry.ascii(8, "ATA", 8).ascii(16, "QEMU HARDDISK", 16).ascii(32, "2.5+", 4);
    admin->pages["inquiry"] = inquiry.bytes();
    Page rc(32);
    rc.be(0, 2097151, 8).be(8, 512, 4).u8(13, 3);
    admin->pages["rc16"] = rc.bytes();
    return admin;
  };
  const FirmwareReport r = query_firmware("/dev/sda", sata_topology(), std::nullopt, h.backends);
  CHECK_FALSE(r.ata);
  CHECK(has_note(r, "CAP_SYS_RAWIO"));
  CHECK(r.identity_source == "SCSI INQUIRY");
  CHECK(r.model == "QEMU HARDDISK");
  REQUIRE(r.scsi);
  CHECK(scsi_reported_json(*r.scsi)["read_capacity16"]["physical_block_bytes"] == 4096);
  REQUIRE(r.expectations.size() == 1);
  CHECK(r.expectations[0].source.find("READ CAPACITY(16)") != std::string::npos);
  CHECK(r.mismatches.empty());
}

TEST_CASE("smartctl that could not open the device: the note says why") {
  Harness h;
  h.make_sgio = [] { return std::make_unique<FakeSgioAdmin>(); };
  h.smartctl = SmartctlRun{true, 2, false, firmware_test::read_data_file("smartctl_open_failed.json"), ""};
  const FirmwareReport r = query_firmware("/dev/sda", sata_topology(), std::nullopt, h.backends);
  CHECK(has_note(r, "smartctl could not read /dev/sda (exit status 2: device open failed"));
  CHECK(has_note(r, "Permission denied"));
  REQUIRE(r.smart);
  CHECK(smartctl_summary_json(*r.smart)["has_data"] == false);
}

TEST_CASE("Targets without firmware get a note and nothing else") {
  Harness h;
  for (const char* transport : {"virtio", "loop", "file", "sim", "unknown"}) {
    Topology t;
    t.transport = transport;
    t.disk_name = std::string(transport) == "virtio" ? "vda" : "";
    const FirmwareReport r = query_firmware("/dev/vda", t, 16384, h.backends);
    CHECK(r.notes.size() == 1);
    CHECK_FALSE(r.nvme);
    CHECK_FALSE(r.ata);
    CHECK_FALSE(r.smart);
    CHECK(r.mismatches.empty());
  }
  CHECK(h.opened.empty());
  CHECK(h.smartctl_devices.empty());
}

TEST_CASE("Write counters: NVMe SMART log and OCP C0h, else smartctl") {
  Harness h;
  build_nvme_sysfs_with_generic(h.sys);
  h.make_nvme = [&] { return npwg3_drive(nullptr); };
  const SmartWriteCounters nvme = read_write_counters("/dev/nvme0n1", h.backends);
  CHECK(nvme.host_bytes_written == 1000u * 512000u);
  CHECK(nvme.nand_bytes_written == 777000000u);
  CHECK(nvme.nand_source.find("OCP") != std::string::npos);
  CHECK(h.smartctl_devices.empty());

  h.make_nvme = []() -> std::unique_ptr<NvmeAdmin> { throw Error(ErrorCategory::permission, "needs CAP_SYS_ADMIN"); };
  h.smartctl = SmartctlRun{true, 0, false, firmware_test::read_data_file("smartctl_nvme_970evo.json"), ""};
  const SmartWriteCounters fallback = read_write_counters("/dev/nvme0n1", h.backends);
  CHECK(fallback.host_bytes_written == 61865984ull * 512000);
  CHECK(fallback.host_source.find("smartctl") != std::string::npos);
  REQUIRE_FALSE(fallback.notes.empty());
  CHECK(fallback.notes.front() == "needs CAP_SYS_ADMIN");
}

TEST_CASE("Write counters of a SATA partition come from smartctl on the whole disk") {
  Harness h;
  h.sys.dir("devices/pci0000:00/ata1/host0/block/sda/sda2");
  h.sys.write("devices/pci0000:00/ata1/host0/block/sda/sda2/partition", "2");
  h.sys.link("class/block/sda2", "../../devices/pci0000:00/ata1/host0/block/sda/sda2");
  h.smartctl = SmartctlRun{true, 0, false, firmware_test::read_data_file("smartctl_ata_mx500.json"), ""};
  const SmartWriteCounters c = read_write_counters("/dev/sda2", h.backends);
  CHECK(h.smartctl_devices == std::vector<std::string>{"/dev/sda"});
  CHECK(c.ftl_program_pages == 1856421907u);
}

TEST_CASE("Write amplification: per-phase deltas, a ratio only where both counters moved") {
  SmartWriteCounters start, middle, end;
  start.host_source = middle.host_source = "host counter";
  start.nand_source = middle.nand_source = "nand counter";
  start.host_bytes_written = 1000;
  start.nand_bytes_written = 5000;
  middle.host_bytes_written = 3000;
  middle.nand_bytes_written = 11000;
  end.host_bytes_written = 3000;
  end.host_source = "host counter";
  end.notes = {"a note"};
  const auto grid = write_phase_counts(start, middle, 2048, "grid writes");
  CHECK(grid.host_bytes_written == 2000u);
  CHECK(grid.nand_bytes_written == 6000u);
  CHECK(grid.write_amplification == 3.0);
  const auto stream = write_phase_counts(middle, end, 4096, "stream writes");
  CHECK(stream.host_bytes_written == 0u);
  CHECK_FALSE(stream.nand_bytes_written);  // the last reading has no NAND counter
  CHECK_FALSE(stream.write_amplification);
  CHECK_FALSE(write_phase_counts(middle, start, 1, "backwards").host_bytes_written);
  SmartWriteCounters other_counter = middle;
  other_counter.host_source = "another host counter";
  other_counter.host_bytes_written = 9000;
  CHECK_FALSE(write_phase_counts(start, other_counter, 1, "switched counters").host_bytes_written);
  const auto j = write_amplification_json(combine_write_phases(end, grid, stream));
  CHECK(j.dump() ==
        R"({"host_source":"host counter","nand_source":"",)"
        R"("write_grid":{"pattern":"grid writes","bytes_issued":2048,"host_bytes_written":2000,)"
        R"("nand_bytes_written":6000,"write_amplification":3.0,"media_bytes_erased":null},)"
        R"("stream":{"pattern":"stream writes","bytes_issued":4096,"host_bytes_written":0,)"
        R"("nand_bytes_written":null,"write_amplification":null,"media_bytes_erased":null},)"
        R"("reclaim_unit_bytes":null,"notes":["a note","the drive exposes no NAND-side write counter with a known unit"],)"
        R"("slc_cache":{"pattern":"","bytes_issued":0,"host_bytes_written":null,"nand_bytes_written":null,)"
        R"("write_amplification":null,"media_bytes_erased":null},"nand_step_bytes":1})");
}

TEST_CASE("Expectations serialise with their derivations") {
  SysfsExpectation e{"NVMe Identify", "6.1", {{"minimum_io_size", 16384, "NPWG=3"}, {"discard_granularity", {}, "x"}}};
  const auto j = expectation_json(e);
  CHECK(j["source"] == "NVMe Identify");
  CHECK(j["fields"][0]["value"] == 16384);
  CHECK(j["fields"][1]["value"].is_null());
}

TEST_CASE("SD card: the registers from sysfs, the CID as identity, no command sent") {
  Harness h;
  const std::string card = "devices/pci0000:00/0000:00:05.0/mmc_host/mmc0/mmc0:aaaa";
  h.sys.write(card + "/type", "SD");
  h.sys.write(card + "/preferred_erase_size", "4194304");
  // CSD 2.0 of an 8 GiB card (C_SIZE 3FFFh), and a CID one digit too long.
  h.sys.write(card + "/csd", "400e00325b5900003fff7f800a400000");
  h.sys.write(card + "/cid", "035344535530384780123456780017700");
  h.sys.link("block/mmcblk0/device", "../../" + card);
  Topology t;
  t.disk_name = "mmcblk0";
  t.transport = "mmc";
  const FirmwareReport r = query_firmware("/dev/mmcblk0", t, std::nullopt, h.backends);
  REQUIRE(r.mmc);
  REQUIRE(r.mmc->sd_csd);
  CHECK(r.mmc->sd_csd->capacity_bytes() == 8ull << 30);
  CHECK(r.mmc->preferred_erase_size == 4194304u);
  CHECK(h.opened.empty());
  CHECK(h.smartctl_devices.empty());
  CHECK(!r.nvme);
  CHECK(!r.scsi);
  // The CID is one digit too long: not decoded, a note says so, sysfs identity stays.
  CHECK(!r.mmc->cid);
  CHECK(has_note(r, "card register CID"));
  CHECK(r.identity_source != "card CID");

  h.sys.write(card + "/cid", "03534453553038478012345678017701");
  const FirmwareReport fixed = query_firmware("/dev/mmcblk0", t, std::nullopt, h.backends);
  REQUIRE(fixed.mmc);
  REQUIRE(fixed.mmc->cid);
  CHECK(fixed.mmc->cid->mdt_year == 2023);
  CHECK(fixed.mmc->cid->mdt_month == 7);
  CHECK(fixed.identity_source == "card CID");
  CHECK(fixed.model == "SU08G");
  CHECK(fixed.serial == "0x12345678");
  CHECK(fixed.firmware == "8.0");
}
