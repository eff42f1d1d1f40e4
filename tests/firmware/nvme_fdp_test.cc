// Flexible Data Placement: the four FDP log pages and the FDP feature decoded
// from pages built by the spec's layout (log_page_builder.h), read through a
// scripted NvmeAdmin as read_nvme_firmware and the write counters read them,
// rendered in reported.nvme.fdp and `info`, and the write amplification and
// reclaim unit note a --write run on an FDP drive reports.
#include "firmware/nvme_fdp.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "firmware/nvme_query.h"
#include "firmware/write_counters.h"
#include "firmware_test_util.h"
#include "log_page_builder.h"
#include "report/firmware_json.h"
#include "report/text_report.h"

using namespace ssdprobe;
using namespace firmware_test;

namespace {

constexpr uint64_t kGiB = 1ull << 30;
constexpr uint64_t kMiB = 1ull << 20;

// Two configurations: 0 with one handle, 1 (the one in use) with four
// handles of both types, 2 reclaim groups and vendor bytes after them.
std::vector<FdpConfigSpec> two_configs() {
  FdpConfigSpec small{.fdpa = 0x80, .nrg = 1, .ruht = {1}, .maxpids = 0, .nnss = 0, .runs = 64ull << 20,
                      .erutl = 0, .vendor = {}};
  FdpConfigSpec large{.fdpa = 0x91, .nrg = 2, .ruht = {1, 1, 2, 2}, .maxpids = 3, .nnss = 15, .runs = 16 * kGiB,
                      .erutl = 3600, .vendor = {0xAA, 0xBB, 0xCC, 0xDD}};
  return {small, large};
}

TEST_CASE("FDP Configurations (20h): header and descriptors at their spec offsets") {
  const auto log = decode_fdp_configurations(fdp_configurations_page(two_configs(), 1).bytes());
  REQUIRE(log);
  CHECK(log->numfdpc == 1);
  CHECK(log->version == 1);
  CHECK(log->lsize == 16 + 68 + 84);
  CHECK_FALSE(log->truncated);
  REQUIRE(log->configs.size() == 2);
  const FdpConfiguration& c = log->configs[1];
  CHECK(c.dsze == 84);
  CHECK(c.fdpcv());
  CHECK(c.fdpvwc());
  CHECK(c.rgif() == 1);
  CHECK(c.vss == 4);
  CHECK(c.nrg == 2);
  CHECK(c.nruh == 4);
  CHECK(c.maxpids == 3);
  CHECK(c.nnss == 15);
  CHECK(c.runs == 16 * kGiB);
  CHECK(c.erutl == 3600);
  CHECK(c.ruht == std::vector<uint8_t>{1, 1, 2, 2});
  CHECK(log->configs[0].runs == 64ull << 20);
  CHECK(fdp_ruh_type_name(2) == "persistently isolated");
}

TEST_CASE("FDP Configurations: descriptors past the page or its LSIZE are dropped, not read") {
  Page page = fdp_configurations_page(two_configs());
  auto cut = page.bytes();
  cut.resize(16 + 68 + 40);  // the second descriptor does not fit
  const auto log = decode_fdp_configurations(cut);
  REQUIRE(log);
  CHECK(log->truncated);
  CHECK(log->configs.size() == 1);

  page.le32(4, 16 + 68);  // LSIZE says the page ends after the first
  CHECK(decode_fdp_configurations(page.bytes())->configs.size() == 1);

  page.le32(4, 16 + 68 + 84).le16(16 + 68, 40);  // DSZE smaller than the fixed part
  CHECK(decode_fdp_configurations(page.bytes())->truncated);

  page.le16(16 + 68, 66);  // DSZE leaves room for no handle descriptor at all
  const auto few = decode_fdp_configurations(page.bytes());
  CHECK(few->truncated);
  CHECK(few->configs[1].ruht.empty());
  CHECK_FALSE(decode_fdp_configurations(std::vector<uint8_t>(15, 0)));
}

TEST_CASE("Reclaim Unit Handle Usage (21h), FDP Statistics (22h) and the FDP feature") {
  const auto usage = decode_fdp_ruh_usage(fdp_ruh_usage_page({1, 2, 0, 1}).bytes());
  REQUIRE(usage);
  CHECK(usage->nruh == 4);
  CHECK(usage->ruha == std::vector<uint8_t>{1, 2, 0, 1});
  auto short_usage = fdp_ruh_usage_page({1, 2, 0, 1}).bytes();
  short_usage.resize(8 + 8 * 2);
  CHECK(decode_fdp_ruh_usage(short_usage)->truncated);

  const uint128 big = (static_cast<uint128>(1) << 64) + 5;
  const auto stats = decode_fdp_statistics(fdp_statistics_page(1000, 3000, big).bytes());
  REQUIRE(stats);
  CHECK(stats->hbmw == 1000);
  CHECK(stats->mbmw == 3000);
  CHECK(stats->mbe == big);
  CHECK_FALSE(decode_fdp_statistics(std::vector<uint8_t>(63, 0)));

  const FdpFeature on = decode_fdp_feature(0x0201);
  CHECK(on.fdpe);
  CHECK(on.fdpcidx == 2);
  CHECK_FALSE(decode_fdp_feature(0x0200).fdpe);
  CHECK(nvme_ctrl_supports_fdp(1u << 19));
  CHECK_FALSE(nvme_ctrl_supports_fdp(~(1u << 19)));
}

TEST_CASE("FDP Events (23h): fields valid by their flags, Media Reallocated's LBA") {
  const std::vector<FdpEventSpec> events = {
      {.type = 0x00, .flags = 0x7, .pid = 0x0102, .timestamp_ms = 0x123456789A, .nsid = 1, .rgid = 1, .ruhid = 3,
       .nlbam = 0, .lba = {}},
      {.type = 0x80, .flags = 0x4, .pid = 0, .timestamp_ms = 7, .nsid = 0, .rgid = 0, .ruhid = 2, .nlbam = 16,
       .lba = 0xABCDEF},
  };
  const auto log = decode_fdp_events(fdp_events_page(events).bytes());
  REQUIRE(log);
  CHECK(log->numfdpe == 2);
  REQUIRE(log->events.size() == 2);
  CHECK(log->events[0].pid == 0x0102);
  CHECK(log->events[0].timestamp_ms == 0x123456789A);
  CHECK(log->events[0].ruhid == 3);
  CHECK(log->events[1].nlbam == 16);
  CHECK(log->events[1].lba == 0xABCDEFu);

  NvmeFdp fdp;
  fdp.host_events = log;
  const auto j = nvme_fdp_json(fdp)["host_events"]["events"];
  CHECK(j[0]["type_name"] == "Reclaim Unit Not Fully Written");
  CHECK(j[0]["nsid"] == 1);
  CHECK(j[1]["type_name"] == "Media Reallocated");
  CHECK(j[1]["pid"].is_null());  // PIV clear
  CHECK(j[1]["nsid"].is_null());
  CHECK(j[1]["ruhid"] == 2);
  CHECK(j[1]["lba"] == 0xABCDEF);
  CHECK(fdp_event_type_name(0x75) == "vendor specific 0x75");
  CHECK(fdp_event_type_name(0x04) == "reserved 0x04");

  Page lying = fdp_events_page(events);
  lying.le32(0, 1000);  // more events than a page holds
  const auto capped = decode_fdp_events(lying.bytes());
  CHECK(capped->events.size() == kFdpEventsMax);
  CHECK(capped->truncated);
}

// Answers Identify, the SMART log, Get Features FDP and the FDP logs of
// endurance group 1 by LID (and LSP for events); records each request.
class FdpAdmin : public NvmeAdmin {
 public:
  std::vector<uint8_t> ctrl = nvme_controller().bytes(), ns;
  std::map<std::string, std::vector<uint8_t>> logs;
  uint32_t feature = 0x0101;  // enabled, configuration 1
  std::optional<std::vector<uint8_t>> group_list;  // CNS 19h; unsupported when absent
  std::vector<std::string>* calls = nullptr;  // outlives the admin, which the reader closes

  FdpAdmin() {
    Page c = nvme_controller();
    c.le32(96, 1u << 19);  // CTRATT.FDPS
    ctrl = c.bytes();
    Page n = nvme_namespace({{12, 0, 0}}, 0, 0);
    n.le16(102, 1);  // ENDGID
    ns = n.bytes();
    logs["20"] = fdp_configurations_page(two_configs()).bytes();
    logs["21"] = fdp_ruh_usage_page({1, 1, 2, 0}).bytes();
    logs["22"] = fdp_statistics_page(4 * kGiB, 5 * kGiB, 32 * kGiB).bytes();
    logs["23/1"] = fdp_events_page(std::vector<FdpEventSpec>(1)).bytes();
    logs["23/0"] = fdp_events_page({}).bytes();
  }
  std::vector<uint8_t> identify_ctrl() override { return ctrl; }
  std::vector<uint8_t> identify_ns(uint32_t) override { return ns; }
  std::vector<uint8_t> identify_ns_nvm(uint32_t) override { throw Error(ErrorCategory::unsupported, "no CNS 05h"); }
  std::vector<uint8_t> smart_log() override { return Page(512).le64(48, 100).bytes(); }
  std::vector<uint8_t> log_page(uint8_t, uint32_t) override { throw Error(ErrorCategory::unsupported, "no C0h"); }
  std::optional<uint32_t> nsid() override { return 1; }
  uint32_t get_feature(uint8_t fid, uint32_t cdw11) override {
    if (calls) calls->push_back(fmt::format("feature {:02x} {}", fid, cdw11));
    return feature;
  }
  std::vector<uint8_t> identify_endurance_groups(uint16_t start) override {
    if (calls) calls->push_back(fmt::format("cns 19 from {}", start));
    if (!group_list) throw Error(ErrorCategory::unsupported, "Identify CNS 19h: Invalid Field in Command");
    return *group_list;
  }
  std::vector<uint8_t> endurance_group_log(uint8_t lid, uint16_t endgid, uint8_t lsp, uint32_t length) override {
    if (calls) calls->push_back(fmt::format("log {:02x} eg {} lsp {} len {}", lid, endgid, lsp, length));
    const std::string key = lid == kNvmeLogFdpEvents ? fmt::format("{:02x}/{}", lid, lsp) : fmt::format("{:02x}", lid);
    const auto found = logs.find(key);
    if (found == logs.end()) throw Error(ErrorCategory::unsupported, "Get Log Page " + key + "h: Invalid Log Page");
    auto page = found->second;
    page.resize(length);  // a drive returns what was asked for
    return page;
  }
};

NvmeAdminOpener opener(std::vector<std::string>& calls, bool fdps = true) {
  return [&calls, fdps](const std::string&) {
    auto admin = std::make_unique<FdpAdmin>();
    admin->calls = &calls;
    if (!fdps) admin->ctrl = nvme_controller().bytes();
    return std::unique_ptr<NvmeAdmin>(std::move(admin));
  };
}

NvmeTarget nvme0n1() { return NvmeTarget{"nvme0", "nvme0n1", "", "ng0n1", 1}; }

TEST_CASE("An FDP drive through the admin seam: every FDP page, rendered in reported.nvme.fdp and info") {
  std::vector<std::string> calls, notes;
  const NvmeFirmwareData data = read_nvme_firmware(nvme0n1(), opener(calls), notes);
  // FDP first, then LID 09h (the endurance group's own information log) of the group FDP was found in.
  CHECK(calls == std::vector<std::string>{
                            "feature 1d 1", "log 20 eg 1 lsp 0 len 16", "log 20 eg 1 lsp 0 len 168",
                            "log 22 eg 1 lsp 0 len 64", "log 21 eg 1 lsp 0 len 8", "log 21 eg 1 lsp 0 len 40",
                            "log 23 eg 1 lsp 1 len 4096", "log 23 eg 1 lsp 0 len 4096", "log 09 eg 1 lsp 0 len 512"});
  REQUIRE(data.fdp);
  const auto j = nvme_reported_json(data)["fdp"];
  CHECK(j["endgid"] == 1);
  CHECK(j["fdpe"] == true);
  CHECK(j["fdpcidx"] == 1);
  CHECK(j["configuration_in_use"]["runs"] == 16 * kGiB);
  CHECK(j["configuration_in_use"]["ruht_names"][2] == "persistently isolated");
  CHECK(j["configurations"]["configs"].size() == 2);
  CHECK(j["ruh_usage"]["host_specified"] == 2);
  CHECK(j["ruh_usage"]["unused"] == 1);
  CHECK(j["statistics"]["mbmw_per_hbmw"] == 1.25);
  CHECK(j["host_events"]["numfdpe"] == 1);
  CHECK(j["controller_events"]["events"].empty());

  ResultDocument doc;
  doc.firmware.nvme = data;
  const std::string text = render_text(doc);
  CHECK(text.find("FDP Configuration in use (20h): dsze 84 fdpa 145") != std::string::npos);
  CHECK(text.find("runs 17179869184") != std::string::npos);
  CHECK(text.find("FDP Statistics (22h): hbmw 4294967296 mbmw 5368709120 mbe 34359738368") != std::string::npos);
}

TEST_CASE("No FDP without CTRATT.FDPS or an endurance group, and a refused feature is a note") {
  std::vector<std::string> calls, notes;
  CHECK_FALSE(read_nvme_firmware(nvme0n1(), opener(calls, false), notes).fdp);
  CHECK(calls == std::vector<std::string>{"log 09 eg 1 lsp 0 len 512"});  // no FDP command, only LID 09h

  struct Refusing : FdpAdmin {
    uint32_t get_feature(uint8_t, uint32_t) override { throw Error(ErrorCategory::unsupported, "Get Features 1Dh refused"); }
  };
  const NvmeAdminOpener refusing = [](const std::string&) { return std::unique_ptr<NvmeAdmin>(new Refusing); };
  const auto data = read_nvme_firmware(nvme0n1(), refusing, notes);
  REQUIRE(data.fdp);
  CHECK_FALSE(data.fdp->feature);
  CHECK(data.fdp->active_configuration() == nullptr);  // enabled state unknown
  CHECK(data.fdp->statistics);
  CHECK(std::find(notes.begin(), notes.end(), "Get Features 1Dh refused") != notes.end());
}

// Laid out like a published emulator's controller: CTRATT has FDPS (bit 19)
// and Endurance Groups (bit 4), but the namespace reports ENDGID 0 and the
// controller ENDGIDMAX 0.
struct EndgidZeroAdmin : FdpAdmin {
  EndgidZeroAdmin() {
    Page c = nvme_controller();
    c.le32(96, (1u << 19) | (1u << 4));
    ctrl = c.bytes();
    ns = nvme_namespace({{12, 0, 0}}, 0, 0).bytes();  // ENDGID 0
  }
};

template <typename Admin>
NvmeAdminOpener opener_of(std::vector<std::string>& calls, std::function<void(Admin&)> shape = nullptr) {
  return [&calls, shape](const std::string&) {
    auto admin = std::make_unique<Admin>();
    admin->calls = &calls;
    if (shape) shape(*admin);
    return std::unique_ptr<NvmeAdmin>(std::move(admin));
  };
}

TEST_CASE("ENDGID 0 with FDPS set: the Endurance Group List, else group 1, as real controllers need") {
  std::vector<std::string> calls, notes;
  SECTION("no Endurance Group List: group 1, as nvme-cli reaches it") {
    const auto data = read_nvme_firmware(nvme0n1(), opener_of<EndgidZeroAdmin>(calls), notes);
    REQUIRE(data.fdp);
    CHECK(data.fdp->endgid == 1);
    CHECK(data.fdp->endgid_source == "assumed 1");
    CHECK(calls.at(0) == "cns 19 from 0");
    CHECK(calls.at(1) == "feature 1d 1");
    CHECK(calls.back() == "log 09 eg 1 lsp 0 len 512");  // the endurance log of the group FDP was found in
    const auto j = nvme_reported_json(data);
    CHECK(j["fdp"]["endgid_source"] == "assumed 1");
    CHECK(j["fdp"]["configuration_in_use"]["runs"] == 16 * kGiB);
    CHECK(j["endgidmax"] == 0);
    for (const auto& n : notes) CHECK(n.find("CTRATT says FDP") == std::string::npos);
    ResultDocument doc;
    doc.firmware.nvme = data;
    const std::string text = render_text(doc);
    CHECK(text.find("Flexible Data Placement (Get Features 1Dh): endgid 1 endgid_source assumed 1 fdpe true "
                    "fdpcidx 1") != std::string::npos);
  }
  SECTION("the list names group 3: that one is read") {
    Page list(4096);
    list.le16(0, 1).le16(2, 3);
    const auto data = read_nvme_firmware(
        nvme0n1(), opener_of<EndgidZeroAdmin>(calls, [&](EndgidZeroAdmin& a) { a.group_list = list.bytes(); }), notes);
    REQUIRE(data.fdp);
    CHECK(data.fdp->endgid == 3);
    CHECK(data.fdp->endgid_source == "endurance group list");
    CHECK(std::find(calls.begin(), calls.end(), "log 22 eg 3 lsp 0 len 64") != calls.end());
    CHECK(calls.back() == "log 09 eg 3 lsp 0 len 512");
  }
  SECTION("no group answers: no FDP, and one note naming what was advertised and what failed") {
    struct Silent : EndgidZeroAdmin {
      uint32_t get_feature(uint8_t, uint32_t) override {
        throw Error(ErrorCategory::unsupported, "Get Features 1Dh on /dev/nvme0n1: NVMe status Invalid Field in Command");
      }
      std::vector<uint8_t> endurance_group_log(uint8_t lid, uint16_t, uint8_t, uint32_t) override {
        throw Error(ErrorCategory::unsupported, fmt::format("Get Log Page {:02X}h: Invalid Log Page", lid));
      }
    };
    const auto data = read_nvme_firmware(nvme0n1(), opener_of<Silent>(calls), notes);
    CHECK_FALSE(data.fdp);
    const auto note = std::find_if(notes.begin(), notes.end(),
                                   [](const std::string& n) { return n.starts_with("CTRATT says FDP"); });
    REQUIRE(note != notes.end());
    CHECK(note->find("ENDGID 0") != std::string::npos);
    CHECK(note->find("endurance group 1 (assumed 1): Get Features 1Dh on /dev/nvme0n1: NVMe status Invalid Field") !=
          std::string::npos);
  }
}

TEST_CASE("Write counters on an FDP drive come from the FDP Statistics, with the reclaim unit") {
  std::vector<std::string> calls, notes;
  const NvmeFirmwareData before = read_nvme_logs(nvme0n1(), opener(calls), notes);
  // counters only: no RUH usage, no events
  CHECK(calls == std::vector<std::string>{"feature 1d 1", "log 20 eg 1 lsp 0 len 16", "log 20 eg 1 lsp 0 len 168",
                                                 "log 22 eg 1 lsp 0 len 64", "log 09 eg 1 lsp 0 len 512"});
  REQUIRE(before.fdp);
  const SmartWriteCounters start = counters_from_nvme_logs(&*before.smart, nullptr, &*before.fdp);
  CHECK(start.host_bytes_written == 4 * kGiB);
  CHECK(start.nand_bytes_written == 5 * kGiB);
  CHECK(start.host_source.find("HBMW") != std::string::npos);
  CHECK(start.reclaim_unit_bytes == 16 * kGiB);

  NvmeFdp after_fdp = *before.fdp;
  after_fdp.statistics = FdpStatistics{.hbmw = 4 * kGiB + kMiB, .mbmw = 5 * kGiB + 3 * kMiB, .mbe = 33 * kGiB};
  const SmartWriteCounters end = counters_from_nvme_logs(&*before.smart, nullptr, &after_fdp);
  const auto stream = write_phase_counts(start, end, kMiB, "stream writes");
  CHECK(stream.host_bytes_written == kMiB);  // exact bytes, where SMART data units round to 512,000 B
  CHECK(stream.nand_bytes_written == 3 * kMiB);
  CHECK(stream.write_amplification == 3.0);
  CHECK(stream.media_bytes_erased == kGiB);
  const auto w = combine_write_phases(end, write_phase_counts(start, start, 0, "grid"), stream);
  CHECK(w.reclaim_unit_bytes == 16 * kGiB);
  CHECK(write_amplification_json(w)["stream"]["media_bytes_erased"] == kGiB);

  ResultDocument doc;
  doc.run.emplace();
  doc.write_probe.emplace();
  doc.write_probe->write_amplification = w;
  const std::string text = render_text(doc, 200);
  CHECK(text.find("Write amplification: 3.00 for the stream writes (1 MiB written by the host, 3 MiB to the "
                  "media, 1 GiB erased; from the FDP Statistics log 22h host bytes with metadata written (HBMW) and") !=
        std::string::npos);
  CHECK(text.find("for the grid") == std::string::npos);  // no bytes moved: no ratio, no line

  NvmeFdp disabled = *before.fdp;
  disabled.feature->fdpe = false;  // statistics only count while FDP is enabled: SMART it is
  const SmartWriteCounters smart = counters_from_nvme_logs(&*before.smart, nullptr, &disabled);
  CHECK(smart.host_bytes_written == 100u * 512000u);
  CHECK_FALSE(smart.reclaim_unit_bytes);
}

TEST_CASE("The reclaim unit beside the measured erase block") {
  CHECK(reclaim_unit_note(16 * kGiB, 64ull << 20) ==
        "the FDP reclaim unit nominal size (RUNS) is 16 GiB: 256 erase blocks of the 64 MiB the stream measured "
        "(a reclaim unit spans several erase units that the drive erases together)");
  CHECK(reclaim_unit_note(64ull << 20, 64ull << 20).find("is 64 MiB, the erase block the stream measured") !=
        std::string::npos);
  CHECK(reclaim_unit_note(96ull << 20, 64ull << 20).find("1.5 times the erase block") != std::string::npos);
  CHECK(reclaim_unit_note(kGiB, std::nullopt).find("found no erase block") != std::string::npos);
}

}  // namespace
