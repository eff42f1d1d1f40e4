// Zoned devices: the ZNS Identify decoders on pages built from the Zoned
// Namespace Command Set 1.1 field offsets, the firmware probe asking for
// them only on a zoned namespace (through the same fake NvmeAdmin seam as
// firmware_query_test), the zone report summary, the sysfs zone limits and
// the write refusal.
#include <catch2/catch.hpp>

#include <linux/blkzoned.h>

#include "core/error.h"
#include "device/zone_report.h"
#include "device/zoned.h"
#include "firmware/firmware_query.h"
#include "firmware/nvme_zns.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"
#include "safety/zone_choice.h"
#include "safety/zoned_refusal.h"

using namespace ssdprobe;
using firmware_test::build_nvme_sysfs;
using firmware_test::nvme_controller;
using firmware_test::nvme_namespace;
using firmware_test::Page;
using firmware_test::TempTree;

namespace {

constexpr uint64_t kMiB = 1 << 20;

// ZNS Identify Namespace: ZOC, OZCS, MAR, MOR, RRL..FRL3 at bytes 0..43,
// ZRWA fields at 44..52, LBA Format Extensions from byte 2816 (16 B each:
// ZSZE at +0, ZDES at +8).
Page zns_namespace(uint32_t mar, uint32_t mor, uint64_t zsze_4k) {
  Page p(4096);
  p.le16(0, 0x0001).le16(2, 0x0001);  // VZCAP, RAZB
  p.le32(4, mar).le32(8, mor);
  p.le32(12, 30).le32(16, 60);        // RRL, FRL (seconds)
  p.le32(24, 7).le32(40, 9);          // RRL2, FRL3
  p.le64(2816 + 0 * 16, zsze_4k * 8).u8(2816 + 0 * 16 + 8, 0);  // format 0: 512 B blocks
  p.le64(2816 + 1 * 16, zsze_4k).u8(2816 + 1 * 16 + 8, 2);      // format 1: 4 KiB blocks, 128 B extension
  return p;
}

// ZNS Identify Controller: ZASL at byte 0.
Page zns_controller(uint8_t zasl) {
  Page p(4096);
  p.u8(0, zasl);
  return p;
}

// Answers the base pages and, when given, the ZNS ones; without them it
// falls back on NvmeAdmin's "not supported" defaults, as an older fake does.
class ZnsAdmin : public NvmeAdmin {
 public:
  std::vector<uint8_t> ctrl = nvme_controller().bytes();
  std::vector<uint8_t> ns = nvme_namespace({{9, 0, 0}, {12, 0, 0}}, 1, 0x10).bytes();
  std::vector<uint8_t> zns_ns, zns_ctrl;
  std::vector<std::string>* calls = nullptr;

  std::vector<uint8_t> identify_ctrl() override { return log("identify_ctrl", ctrl); }
  std::vector<uint8_t> identify_ns(uint32_t) override { return log("identify_ns", ns); }
  std::vector<uint8_t> identify_ns_nvm(uint32_t) override { return log("identify_ns_nvm", {}); }
  std::vector<uint8_t> smart_log() override { return log("smart_log", {}); }
  std::vector<uint8_t> log_page(uint8_t, uint32_t) override { return log("log_page", {}); }
  std::optional<uint32_t> nsid() override { return 1; }
  std::vector<uint8_t> identify_ns_zns(uint32_t nsid) override {
    if (zns_ns.empty()) return NvmeAdmin::identify_ns_zns(nsid);
    return log("identify_ns_zns", zns_ns);
  }
  std::vector<uint8_t> identify_ctrl_zns() override {
    if (zns_ctrl.empty()) return NvmeAdmin::identify_ctrl_zns();
    return log("identify_ctrl_zns", zns_ctrl);
  }

 private:
  std::vector<uint8_t> log(const std::string& what, const std::vector<uint8_t>& page) {
    if (calls) calls->push_back(what);
    if (page.empty()) throw Error(ErrorCategory::unsupported, what + ": Invalid Field in Command");
    return page;
  }
};

Topology zoned_topology(const std::string& model) {
  Topology t;
  t.disk_name = "nvme0n1";
  t.transport = "nvme";
  t.logical_block_size = 4096;
  t.zoned = ZonedLimits{model, 64 * kMiB, 16, 8, 12, 128 * 1024};
  return t;
}

Zone seq_zone(uint64_t index, uint8_t cond, uint64_t written) {
  Zone z;
  z.start_bytes = index * 64 * kMiB;
  z.length_bytes = 64 * kMiB;
  z.capacity_bytes = 48 * kMiB;
  z.write_pointer_bytes = z.start_bytes + written;
  z.type = BLK_ZONE_TYPE_SEQWRITE_REQ;
  z.cond = cond;
  return z;
}

struct Probe {
  TempTree sys;
  std::vector<std::string> calls, zone_reports;
  FirmwareBackends backends;
  std::function<void(ZnsAdmin&)> setup = [](ZnsAdmin&) {};

  Probe() {
    build_nvme_sysfs(sys);
    backends.sysfs_root = sys.root().string();
    backends.open_nvme = [this](const std::string&) {
      auto admin = std::make_unique<ZnsAdmin>();
      admin->calls = &calls;
      setup(*admin);
      return admin;
    };
    backends.report_zones = [this](const std::string& device) {
      zone_reports.push_back(device);
      return std::vector<Zone>{seq_zone(0, BLK_ZONE_COND_EMPTY, 0), seq_zone(1, BLK_ZONE_COND_IMP_OPEN, kMiB),
                               seq_zone(2, BLK_ZONE_COND_FULL, 48 * kMiB)};
    };
  }
};

bool has(const std::vector<std::string>& list, const std::string& text) {
  for (const auto& item : list) {
    if (item.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("ZNS Identify Namespace: every field at its spec offset") {
  const auto z = decode_nvme_zns_id_ns(zns_namespace(13, 11, 16384).bytes());
  REQUIRE(z);
  CHECK(z->zoc == 1);
  CHECK(z->vzcap());
  CHECK_FALSE(z->zae());
  CHECK(z->razb());
  CHECK_FALSE(z->zrwasup());
  CHECK(z->mar == 13);
  CHECK(z->max_active_zones() == 14u);  // 0's based
  CHECK(z->mor == 11);
  CHECK(z->max_open_zones() == 12u);
  CHECK(z->rrl == 30);
  CHECK(z->frl == 60);
  CHECK(z->rrl2 == 7);
  CHECK(z->frl3 == 9);
  REQUIRE(z->lbafe.size() == 64);
  CHECK(z->lbafe[0].zsze == 16384u * 8);
  CHECK(z->lbafe[1].zsze == 16384u);
  CHECK(z->lbafe[1].zdes == 2);
}

TEST_CASE("ZNS sizes follow the LBA format in use; FFFFFFFFh means no limit; ZASL scales by the page size") {
  const auto ns = decode_nvme_id_ns(nvme_namespace({{9, 0, 0}, {12, 0, 0}}, 1, 0x10).bytes());
  const auto z = decode_nvme_zns_id_ns(zns_namespace(kZnsNoLimit, kZnsNoLimit, 16384).bytes());
  const auto c = decode_nvme_zns_id_ctrl(zns_controller(5).bytes());
  REQUIRE((ns && z && c));
  const NvmeZnsSizes s = derive_nvme_zns_sizes(&*z, &*c, &*ns);
  CHECK(s.zsze == 16384u);
  CHECK(s.zone_bytes == 64 * kMiB);
  CHECK(s.zone_descriptor_extension_bytes == 128u);
  CHECK(s.zasl_bytes == 32u * 4096);
  CHECK_FALSE(z->max_active_zones());
  CHECK_FALSE(z->max_open_zones());
  const NvmeZnsIdCtrl mdts_limited{0};  // ZASL 0: MDTS limits zone append, no size of its own
  CHECK_FALSE(derive_nvme_zns_sizes(nullptr, &mdts_limited, nullptr).zasl_bytes);
}

TEST_CASE("ZNS decoders reject a short page") {
  CHECK_FALSE(decode_nvme_zns_id_ns(std::vector<uint8_t>(4095, 0xff)));
  CHECK_FALSE(decode_nvme_zns_id_ctrl(std::vector<uint8_t>(100, 0xff)));
}

TEST_CASE("A zoned NVMe namespace: ZNS pages, zone report and sysfs limits reach reported.*") {
  Probe p;
  p.setup = [](ZnsAdmin& a) {
    a.zns_ns = zns_namespace(11, 7, 16384).bytes();
    a.zns_ctrl = zns_controller(5).bytes();
  };
  const Topology t = zoned_topology("host-managed");
  const FirmwareReport r = query_firmware("/dev/nvme0n1", t, std::nullopt, p.backends);
  CHECK(has(p.calls, "identify_ns_zns"));
  CHECK(has(p.calls, "identify_ctrl_zns"));
  CHECK(p.zone_reports == std::vector<std::string>{"/dev/nvme0n1"});
  REQUIRE(r.nvme);
  const auto zns = nvme_reported_json(*r.nvme)["zns"];
  CHECK(zns["max_active_zones"] == 12);
  CHECK(zns["max_open_zones"] == 8);
  CHECK(zns["zsze"] == 16384);
  CHECK(zns["zone_bytes"] == 64 * kMiB);
  CHECK(zns["zasl_bytes"] == 32 * 4096);
  CHECK(zns["ozcs_bits"]["razb"] == true);
  CHECK(zns["lbafe"].size() == 2);
  REQUIRE(r.zones);
  const auto zoned = zoned_reported_json(*t.zoned, r.zones);
  CHECK(zoned["model"] == "host-managed");
  CHECK(zoned["zone_bytes"] == 64 * kMiB);
  CHECK(zoned["max_active_zones"] == 12);
  CHECK(zoned["report"]["zones"] == 3);
  CHECK(zoned["report"]["zone_capacity_bytes"] == 48 * kMiB);
  CHECK(zoned["report"]["empty"] == 1);
  CHECK(zoned["report"]["implicitly_open"] == 1);
  CHECK(zoned["report"]["full"] == 1);
  CHECK(zoned["report"]["written_bytes"] == 49 * kMiB);
  CHECK(has(r.notes, "zoned device: 49 MiB of data lie below the write pointers (1 of 3 zones empty, 1 full)"));
}

TEST_CASE("A zoned namespace whose controller lacks the ZNS pages: notes, and the rest still decoded") {
  Probe p;
  const FirmwareReport r = query_firmware("/dev/nvme0n1", zoned_topology("host-aware"), std::nullopt, p.backends);
  REQUIRE(r.nvme);
  CHECK(r.nvme->ns);
  CHECK_FALSE(r.nvme->zns_ns);
  CHECK(nvme_reported_json(*r.nvme)["zns"].is_null());
  CHECK(has(r.notes, "Identify Namespace (Zoned Namespace command set): not supported"));
  CHECK(r.zones);
}

TEST_CASE("A conventional namespace is never asked for ZNS pages nor a zone report") {
  Probe p;
  Topology t = zoned_topology("none");
  const FirmwareReport r = query_firmware("/dev/nvme0n1", t, std::nullopt, p.backends);
  CHECK_FALSE(has(p.calls, "zns"));
  CHECK(p.zone_reports.empty());
  CHECK_FALSE(r.zones);
  CHECK(zoned_reported_json(*t.zoned, r.zones)["zone_bytes"].is_null());  // chunk_sectors alone is no zone
}

TEST_CASE("Zone report summary: types, conditions, capacity range and bytes below the write pointers") {
  std::vector<Zone> zones{seq_zone(0, BLK_ZONE_COND_CLOSED, 3 * kMiB), seq_zone(1, BLK_ZONE_COND_EXP_OPEN, kMiB),
                          seq_zone(2, BLK_ZONE_COND_OFFLINE, 0), seq_zone(3, BLK_ZONE_COND_READONLY, 0)};
  zones[1].capacity_bytes = 40 * kMiB;
  zones[2].reset_recommended = true;
  Zone conventional;
  conventional.start_bytes = 4 * 64 * kMiB;
  conventional.length_bytes = 64 * kMiB;
  conventional.type = BLK_ZONE_TYPE_CONVENTIONAL;
  conventional.cond = BLK_ZONE_COND_NOT_WP;
  zones.push_back(conventional);
  const ZoneSummary s = summarize_zones(zones);
  CHECK(s.zones == 5);
  CHECK(s.zone_bytes == 64 * kMiB);
  CHECK(s.zone_capacity_bytes == 48 * kMiB);
  CHECK(s.zone_capacity_min_bytes == 40 * kMiB);
  CHECK(s.zone_capacity_max_bytes == 48 * kMiB);
  CHECK(s.sequential_write_required == 4);
  CHECK(s.conventional == 1);
  CHECK(s.conventional_bytes == 64 * kMiB);
  CHECK(s.closed == 1);
  CHECK(s.explicitly_open == 1);
  CHECK(s.offline == 1);
  CHECK(s.read_only == 1);
  CHECK(s.not_write_pointer == 1);
  CHECK(s.reset_recommended == 1);
  CHECK(s.written_bytes == 4 * kMiB);
}

TEST_CASE("Zone limits from sysfs queue/: model, chunk_sectors in 512 B units, limits") {
  TempTree sys;
  sys.write("queue/zoned", "host-managed\n");
  sys.write("queue/chunk_sectors", "131072\n");
  sys.write("queue/nr_zones", "16\n");
  sys.write("queue/max_open_zones", "8\n");
  sys.write("queue/max_active_zones", "0\n");
  sys.write("queue/zone_append_max_bytes", "131072\n");
  const auto z = read_zoned_limits(sys.path("queue"));
  REQUIRE(z);
  CHECK(z->zoned());
  CHECK(z->zone_bytes() == 64 * kMiB);
  CHECK(z->nr_zones == 16u);
  CHECK(z->max_open_zones == 8u);
  CHECK(z->max_active_zones == 0u);
  CHECK(z->zone_append_max_bytes == 131072u);
  CHECK_FALSE(read_zoned_limits(sys.path("no-queue")));
}

TEST_CASE("--write on a zoned device: a whole host-managed disk is zone-safe, host-aware and partitions are refused") {
  Target target;
  target.path = "/dev/nvme0n1";
  target.kind = TargetKind::block;
  target.topology = zoned_topology("host-managed");
  CHECK(zone_safe_writes_apply(target));
  CHECK_NOTHROW(refuse_zoned_writes(target));
  target.topology.zoned->model = "host-aware";
  CHECK_FALSE(zone_safe_writes_apply(target));
  try {
    refuse_zoned_writes(target);
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("host-aware zoned block device with 64 MiB zones") != std::string::npos);
    CHECK(std::string(e.what()).find("only for host-managed devices") != std::string::npos);
  }
  target.topology.zoned->model = "host-managed";
  target.kind = TargetKind::partition;
  CHECK_FALSE(zone_safe_writes_apply(target));
  try {
    refuse_zoned_writes(target);
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("a partition of a host-managed zoned block device") != std::string::npos);
  }
  target.kind = TargetKind::block;
  target.topology.zoned->model = "none";
  CHECK_NOTHROW(refuse_zoned_writes(target));
  target.topology.zoned->model = "host-managed";
  target.kind = TargetKind::file;  // a file on a zoned filesystem: the filesystem places its blocks
  CHECK_FALSE(zone_safe_writes_apply(target));
  CHECK_NOTHROW(refuse_zoned_writes(target));
}
