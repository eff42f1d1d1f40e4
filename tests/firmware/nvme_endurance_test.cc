// The Endurance Group Information log (09h) from hand-built pages: every
// field at its offset and in its unit, short and hostile buffers, which group
// is read, the write counters' media side and endurance estimate from it,
// and a controller that rejects it (a note, never a failure).
#include "firmware/nvme_endurance_log.h"

#include <catch2/catch.hpp>

#include "core/error.h"
#include "firmware/firmware_query.h"
#include "firmware/nvme_logs.h"
#include "firmware/nvme_query.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using firmware_test::nvme_controller;
using firmware_test::nvme_namespace;
using firmware_test::Page;

namespace {

constexpr uint64_t kBillion = 1'000'000'000;

// A page with a distinct value in every field, the spec's offsets.
Page endurance_page(uint64_t estimate, uint64_t media_units) {
  Page p(512);
  p.u8(0, 0x0d).u8(3, 97).u8(4, 10).u8(5, 7);
  p.le(32, estimate, 16).le(48, 111, 16).le(64, 222, 16).le(80, media_units, 16);
  p.le(96, 333, 16).le(112, 444, 16).le(128, 5, 16).le(144, 6, 16);
  p.le(160, 960 * kBillion, 16).le(176, 60 * kBillion, 16);
  return p;
}

// Identify with CTRATT and ENDGID as given, the SMART log, and LID 09h per
// group (absent: Invalid Log Page); records the groups asked for.
class EnduranceAdmin : public NvmeAdmin {
 public:
  uint32_t ctratt = 0;
  uint16_t endgid = 1;
  std::map<uint16_t, std::vector<uint8_t>> groups;
  std::vector<uint16_t>* asked = nullptr;
  uint64_t data_units_written = 1000;
  std::optional<std::vector<uint8_t>> group_list;  // Identify CNS 19h; refused when absent

  std::vector<uint8_t> identify_ctrl() override { return nvme_controller().le32(96, ctratt).bytes(); }
  std::vector<uint8_t> identify_ns(uint32_t) override {
    Page n = nvme_namespace({{12, 0, 0}}, 0, 0);
    return n.le16(102, endgid).bytes();
  }
  std::vector<uint8_t> identify_ns_nvm(uint32_t) override { throw Error(ErrorCategory::unsupported, "no CNS 05h"); }
  std::vector<uint8_t> smart_log() override { return Page(512).le64(48, data_units_written).bytes(); }
  std::vector<uint8_t> log_page(uint8_t, uint32_t) override { throw Error(ErrorCategory::unsupported, "no C0h"); }
  std::optional<uint32_t> nsid() override { return 1; }
  std::vector<uint8_t> identify_endurance_groups(uint16_t) override {
    if (!group_list) throw Error(ErrorCategory::unsupported, "Identify CNS 19h: Invalid Field in Command");
    return *group_list;
  }
  std::vector<uint8_t> endurance_group_log(uint8_t lid, uint16_t group, uint8_t, uint32_t length) override {
    if (asked) asked->push_back(group);
    const auto found = groups.find(group);
    if (lid != kNvmeLogEnduranceGroup || found == groups.end())
      throw Error(ErrorCategory::unsupported, "Get Log Page 09h: Invalid Log Page");
    auto page = found->second;
    page.resize(length);
    return page;
  }
};

NvmeFirmwareData read_through(EnduranceAdmin admin, std::vector<std::string>& notes, bool counters_only = false) {
  NvmeTarget target{"nvme0", "nvme0n1", "", "", 1};
  auto open = [&admin](const std::string&) { return std::unique_ptr<NvmeAdmin>(new EnduranceAdmin(admin)); };
  return counters_only ? read_nvme_logs(target, open, notes) : read_nvme_firmware(target, open, notes);
}

}  // namespace

TEST_CASE("LID 09h: every field at its offset, counters in billions of bytes") {
  const auto log = decode_nvme_endurance_log(endurance_page(600'000, 1234).bytes(), 3);
  REQUIRE(log);
  CHECK(log->endgid == 3);
  CHECK(log->critical_warning == 0x0d);
  CHECK(log->available_spare == 97);
  CHECK(log->available_spare_threshold == 10);
  CHECK(log->percentage_used == 7);
  CHECK(log->endurance_estimate == 600'000);
  CHECK(log->data_units_read == 111);
  CHECK(log->data_units_written == 222);
  CHECK(log->media_units_written == 1234);
  CHECK(log->host_read_commands == 333);
  CHECK(log->host_write_commands == 444);
  CHECK(log->media_data_integrity_errors == 5);
  CHECK(log->error_log_entries == 6);
  CHECK(log->total_capacity_bytes == 960 * kBillion);
  CHECK(log->unallocated_capacity_bytes == 60 * kBillion);
  const auto j = nvme_endurance_json(*log);
  CHECK(j["endurance_estimate_bytes"] == 600'000 * kBillion);  // 600 TB
  CHECK(j["media_units_written_bytes"] == 1234 * kBillion);
  CHECK(j["critical_warning_bits"]["spare_below_threshold"] == true);
  CHECK(j["critical_warning_bits"]["reliability_degraded"] == true);
  CHECK(j["critical_warning_bits"]["read_only"] == true);
}

TEST_CASE("LID 09h: a short buffer is rejected, huge counters do not wrap, 0 means not reported") {
  CHECK_FALSE(decode_nvme_endurance_log(std::vector<uint8_t>(511, 0xff), 1));
  CHECK_FALSE(decode_nvme_endurance_log({}, 1));
  const std::vector<uint8_t> ones(512, 0xff);
  const auto log = decode_nvme_endurance_log(ones, 1);
  REQUIRE(log);
  CHECK_FALSE(nvme_billions_to_bytes(log->media_units_written));
  CHECK_FALSE(nvme_billions_to_bytes(UINT64_MAX / kBillion + 1));
  CHECK(nvme_billions_to_bytes(UINT64_MAX / kBillion) == (UINT64_MAX / kBillion) * kBillion);
  const auto j = nvme_endurance_json(*log);
  CHECK(j["media_units_written_bytes"].is_null());
  CHECK(j["media_units_written"].is_string());  // 128-bit: a decimal string
  const auto zero = decode_nvme_endurance_log(std::vector<uint8_t>(512, 0), 1);
  CHECK(nvme_endurance_json(*zero)["endurance_estimate_bytes"].is_null());
  CHECK(nvme_endurance_json(*zero)["total_capacity_bytes"].is_null());
}

TEST_CASE("LID 09h: the namespace's ENDGID, else group 1 when CTRATT says endurance groups exist") {
  std::vector<uint16_t> asked;
  EnduranceAdmin admin;
  admin.endgid = 0;
  admin.ctratt = kNvmeCtrattEnduranceGroups;
  admin.groups[1] = endurance_page(600'000, 50).bytes();
  admin.asked = &asked;
  std::vector<std::string> notes;
  const NvmeFirmwareData data = read_through(admin, notes);
  REQUIRE(data.endurance);
  CHECK(data.endurance->endgid == 1);
  CHECK(asked == std::vector<uint16_t>{1});
  CHECK(nvme_reported_json(data)["endurance_group"]["percentage_used"] == 7);
}

TEST_CASE("LID 09h where the namespace names no group: the Endurance Group List's groups first, as FDP finds them") {
  std::vector<uint16_t> asked;
  EnduranceAdmin admin;
  admin.endgid = 0;
  admin.ctratt = kNvmeCtrattEnduranceGroups;
  admin.asked = &asked;
  Page list(4096);
  list.le16(0, 2).le16(2, 3).le16(4, 5);
  admin.group_list = list.bytes();
  std::vector<std::string> notes;
  SECTION("the first listed group that answers is read") {
    admin.groups[5] = endurance_page(600'000, 50).bytes();
    const NvmeFirmwareData data = read_through(admin, notes);
    REQUIRE(data.endurance);
    CHECK(data.endurance->endgid == 5);
    CHECK(asked == std::vector<uint16_t>{3, 5});
  }
  SECTION("none answers: one note naming every group asked and where it came from") {
    admin.groups[1] = endurance_page(600'000, 50).bytes();  // not listed: not asked
    const NvmeFirmwareData data = read_through(admin, notes);
    CHECK_FALSE(data.endurance);
    CHECK(asked == std::vector<uint16_t>{3, 5});
    const bool noted = std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("Endurance Group Information log (09h) of endurance group 3 (endurance group list) not "
                    "available: Get Log Page 09h: Invalid Log Page; endurance group 5 (endurance group list)") !=
             std::string::npos;
    });
    CHECK(noted);
  }
  SECTION("no CTRATT bit 4: no group is asked") {
    admin.ctratt = 0;
    admin.groups[3] = endurance_page(600'000, 50).bytes();
    const NvmeFirmwareData data = read_through(admin, notes);
    CHECK_FALSE(data.endurance);
    CHECK(asked.empty());
  }
}

TEST_CASE("LID 09h rejected: a note naming the log and the group, the rest still read") {
  EnduranceAdmin admin;
  admin.endgid = 2;
  std::vector<std::string> notes;
  const NvmeFirmwareData data = read_through(admin, notes);
  CHECK_FALSE(data.endurance);
  CHECK(data.smart);
  CHECK(nvme_reported_json(data)["endurance_group"].is_null());
  const bool noted = std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
    return n.find("Endurance Group Information log (09h) of endurance group 2 not available") != std::string::npos &&
           n.find("Invalid Log Page") != std::string::npos;
  });
  CHECK(noted);
}

TEST_CASE("write counters: LID 09h media units written is the NAND side, in 10^9 B steps; its estimate is kept") {
  EnduranceAdmin admin;
  admin.groups[1] = endurance_page(600'000, 100).bytes();
  std::vector<std::string> notes;
  const NvmeFirmwareData before_data = read_through(admin, notes, true);
  REQUIRE(before_data.endurance);
  const SmartWriteCounters before =
      counters_from_nvme_logs(&*before_data.smart, nullptr, nullptr, &*before_data.endurance);
  CHECK(before.nand_bytes_written == 100 * kBillion);
  CHECK(before.nand_step_bytes == kBillion);
  CHECK(before.nand_source.find("Endurance Group Information log 09h media units written") != std::string::npos);
  CHECK(before.endurance_estimate_bytes == 600'000 * kBillion);

  // 24 GB by the host (SMART: 46,875 units of 512,000 B), 36 GB to the media.
  SmartWriteCounters after = before;
  after.host_bytes_written = *before.host_bytes_written + 46'875 * kNvmeDataUnitBytes;
  after.nand_bytes_written = 136 * kBillion;
  const auto big = write_phase_counts(before, after, 24 * kBillion, "stream writes");
  REQUIRE(big.write_amplification);
  CHECK(*big.write_amplification == Approx(1.5));

  // A small phase moves the media counter by 0 or a few steps: no ratio.
  after.nand_bytes_written = 101 * kBillion;
  const auto small = write_phase_counts(before, after, 24 * kBillion, "grid writes");
  CHECK(small.nand_bytes_written == kBillion);
  CHECK_FALSE(small.write_amplification);
  const auto w = combine_write_phases(after, small, big);
  const bool rounding_noted = std::any_of(w.notes.begin(), w.notes.end(), [](const std::string& n) {
    return n.find("steps by 1000000000 B") != std::string::npos;
  });
  CHECK(rounding_noted);
}

TEST_CASE("write counters: OCP's byte counter wins over LID 09h's coarse one") {
  EnduranceAdmin admin;
  admin.groups[1] = endurance_page(0, 100).bytes();
  std::vector<std::string> notes;
  const NvmeFirmwareData data = read_through(admin, notes, true);
  REQUIRE(data.endurance);
  OcpSmartLog ocp;
  ocp.physical_media_units_written = 12345;
  const SmartWriteCounters c = counters_from_nvme_logs(&*data.smart, &ocp, nullptr, &*data.endurance);
  CHECK(c.nand_bytes_written == 12345u);
  CHECK(c.nand_step_bytes == 1u);
  CHECK_FALSE(c.endurance_estimate_bytes);  // 0: the drive does not report one
}
