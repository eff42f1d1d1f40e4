// Every capability a controller advertises is decoded or named in a note with
// the reason (firmware/nvme_capabilities.h), walked bit by bit over the
// captured QEMU 7.2 Identify data and over a controller laid out like a
// published FDP emulator's (FDPS set, ENDGID 0); and the Streams directive's
// parameters decoded, read through the admin seam and compared with
// measured units.
#include "firmware/nvme_capabilities.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/error.h"
#include "firmware/nvme_query.h"
#include "firmware/nvme_streams_findings.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using namespace firmware_test;

namespace {

// A JSON path like "directives.streams" under reported.nvme.
const nlohmann::ordered_json& at_path(const nlohmann::ordered_json& j, const std::string& path) {
  const nlohmann::ordered_json* node = &j;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    node = &node->at(key);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return *node;
}

// Each set bit of CTRATT, OACS and ONCS is listed once; a decoded one is in
// the document, an undecoded one is in the note with its reason.
void check_every_bit(const NvmeFirmwareData& data) {
  const auto capabilities = nvme_capabilities(data);
  const auto json = nvme_reported_json(data);
  const std::string note = undecoded_capabilities_note(capabilities);
  const std::pair<const char*, uint32_t> fields[] = {
      {"ctratt", data.ctrl->ctratt}, {"oacs", data.ctrl->oacs}, {"oncs", data.ctrl->oncs}};
  for (const auto& entry : fields) {
    const std::string field = entry.first;  // a plain name: clang 14 cannot capture a structured binding
    for (int bit = 0; bit < 32; ++bit) {
      if ((entry.second & (1u << bit)) == 0) continue;
      INFO(field << " bit " << bit);
      const auto listed = std::count_if(capabilities.begin(), capabilities.end(),
                                        [&](const NvmeCapability& c) { return c.field == field && c.bit == bit; });
      CHECK(listed == 1);
    }
  }
  CHECK(json["capabilities"].size() == capabilities.size());
  for (const NvmeCapability& c : capabilities) {
    INFO(c.field << " " << c.bit << " " << c.name);
    CHECK(c.decoded.empty() != c.reason.empty());
    if (!c.decoded.empty()) CHECK_FALSE(at_path(json, c.decoded).is_null());
    if (!c.reason.empty()) CHECK(note.find(c.name) != std::string::npos);
  }
}

class ScriptedAdmin : public NvmeAdmin {
 public:
  std::vector<uint8_t> ctrl, ns;
  std::optional<std::vector<uint8_t>> directive_identify, streams;
  std::vector<uint8_t> identify_ctrl() override { return ctrl; }
  std::vector<uint8_t> identify_ns(uint32_t) override { return ns; }
  std::vector<uint8_t> identify_ns_nvm(uint32_t) override { throw Error(ErrorCategory::unsupported, "no CNS 05h"); }
  std::vector<uint8_t> smart_log() override { return Page(512).bytes(); }
  std::vector<uint8_t> log_page(uint8_t, uint32_t) override { throw Error(ErrorCategory::unsupported, "no C0h"); }
  std::optional<uint32_t> nsid() override { return 1; }
  std::vector<uint8_t> directive_parameters(uint32_t, uint8_t dtype) override {
    const auto& answer = dtype == kNvmeDirectiveStreams ? streams : directive_identify;
    if (!answer) throw Error(ErrorCategory::unsupported, "Directive Receive: Invalid Field in Command");
    return *answer;
  }
};

NvmeFirmwareData read_through(const ScriptedAdmin& script, std::vector<std::string>& notes) {
  const NvmeAdminOpener open = [&script](const std::string&) {
    return std::unique_ptr<NvmeAdmin>(new ScriptedAdmin(script));
  };
  return read_nvme_firmware(NvmeTarget{"nvme0", "nvme0n1", "", "ng0n1", 1}, open, notes);
}

// Streams parameters: MSL 16, NSSA 8, NSSO 2, SWS 12 blocks, SGS 512 SWS, NSA 4, NSO 1.
Page streams_page() {
  Page p(32);
  p.le16(0, 16).le16(2, 8).le16(4, 2).u8(6, 1).le32(16, 12).le16(20, 512).le16(22, 4).le16(24, 1);
  return p;
}

ScriptedAdmin streams_drive() {
  ScriptedAdmin a;
  Page c = nvme_controller();
  c.le16(256, 0x0020 | 0x0002);  // OACS: Directives, Format NVM
  a.ctrl = c.bytes();
  a.ns = nvme_namespace({{12, 0, 0}}, 0, 0).bytes();
  a.directive_identify = Page(4096).u8(0, 0x03).u8(32, 0x03).bytes();  // Identify and Streams, both enabled
  a.streams = streams_page().bytes();
  return a;
}

TEST_CASE("Every capability bit of the captured QEMU 7.2 controller is decoded or named with its reason") {
  NvmeFirmwareData data;
  data.ctrl = decode_nvme_id_ctrl(read_data_bytes("qemu72_nvme_id_ctrl.bin"));
  data.ns = decode_nvme_id_ns(read_data_bytes("qemu72_nvme_id_ns_4k.bin"));
  REQUIRE(data.ctrl);
  REQUIRE(data.ns);
  CHECK(data.ctrl->ctratt == 0x8000);  // Extended LBA Formats
  check_every_bit(data);
  const std::string note = undecoded_capabilities_note(nvme_capabilities(data));
  CHECK(note.find("CTRATT bit 15 (Extended LBA Formats)") != std::string::npos);
  CHECK(note.find("ONCS bit 2") == std::string::npos);  // Dataset Management: its DLFEAT is decoded
}

TEST_CASE("FDPS set, ENDGID 0 and no group answering: the FDP bit is named with the reason, never silent") {
  ScriptedAdmin a;
  Page c = nvme_controller();
  c.le32(96, (1u << 19) | (1u << 4));
  a.ctrl = c.bytes();
  a.ns = nvme_namespace({{12, 0, 0}}, 0, 0).bytes();
  std::vector<std::string> notes;
  const NvmeFirmwareData data = read_through(a, notes);
  CHECK_FALSE(data.fdp);
  check_every_bit(data);
  const auto capabilities = nvme_capabilities(data);
  const auto fdps = std::find_if(capabilities.begin(), capabilities.end(),
                                 [](const NvmeCapability& x) { return x.field == "ctratt" && x.bit == 19; });
  REQUIRE(fdps != capabilities.end());
  CHECK(fdps->decoded.empty());
  CHECK(fdps->reason.find("did not answer") != std::string::npos);
  CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("CTRATT says FDP"); }));
}

TEST_CASE("Streams directive: Return Parameters decoded, read through the admin seam, in reported.nvme") {
  const auto p = decode_streams_params(streams_page().bytes());
  REQUIRE(p);
  CHECK(p->msl == 16);
  CHECK(p->nssa == 8);
  CHECK(p->nsso == 2);
  CHECK(p->sws == 12);
  CHECK(p->sgs == 512);
  CHECK(p->nsa == 4);
  CHECK(p->nso == 1);
  CHECK(stream_write_size_bytes(*p, 4096) == 48 * 1024);
  CHECK(stream_granularity_bytes(*p, 4096) == 24ull << 20);
  CHECK_FALSE(decode_streams_params(Page(20).bytes()));
  CHECK_FALSE(stream_write_size_bytes(NvmeStreamsParams{}, 4096));  // SWS 0: not reported

  std::vector<std::string> notes;
  const NvmeFirmwareData data = read_through(streams_drive(), notes);
  REQUIRE(data.directives);
  REQUIRE(data.directives->streams);
  const auto j = nvme_reported_json(data)["directives"];
  CHECK(j["streams_enabled"] == true);
  CHECK(j["streams"]["sws_bytes"] == 48 * 1024);
  CHECK(j["streams"]["sgs_bytes"] == 24ull << 20);
  check_every_bit(data);

  ScriptedAdmin refusing = streams_drive();
  refusing.streams.reset();
  notes.clear();
  const NvmeFirmwareData refused = read_through(refusing, notes);
  REQUIRE(refused.directives);
  CHECK_FALSE(refused.directives->streams);
  CHECK(undecoded_capabilities_note(nvme_capabilities(refused)).find("Streams directive: advertised") !=
        std::string::npos);
}

TEST_CASE("The Streams directive's sizes beside the units measured") {
  const NvmeStreamsParams p = *decode_streams_params(streams_page().bytes());
  const auto agree = compare_streams(p, 4096, 48 * 1024, 24ull << 20);
  CHECK(agree.mismatches.empty());
  REQUIRE(agree.notes.size() == 2);
  CHECK(agree.notes[0] == "the Streams directive's stream write size agrees with the measured write unit: 48 KiB");

  const auto multiple = compare_streams(p, 4096, 16 * 1024, 12ull << 20);
  CHECK(multiple.mismatches.empty());
  CHECK(multiple.notes[0].find("is 3 times the measured write unit of 16 KiB") != std::string::npos);
  CHECK(multiple.notes[1].find("is 2 times the measured erase block of 12 MiB") != std::string::npos);

  const auto wrong = compare_streams(p, 4096, 32 * 1024, std::nullopt);
  REQUIRE(wrong.mismatches.size() == 1);
  CHECK(wrong.mismatches[0].field == "sws");
  CHECK(wrong.mismatches[0].reported == 48 * 1024);
  CHECK(wrong.mismatches[0].detected == 32 * 1024);
  CHECK(wrong.notes.at(0).find("no erase block was measured") != std::string::npos);
}

}  // namespace
