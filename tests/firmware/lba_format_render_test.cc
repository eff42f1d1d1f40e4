// The LBA format advice where the recommendations are rendered: the text
// report's Recommendation section (before the steps, under a heading that
// says what the format destroys), the JSON's recommendations.lba_format and
// the HTML report's recommendations section (its warning before its
// command), from a document whose NVMe Identify data is QEMU's captured
// namespace with 512 B or 4 KiB in use.
#include <catch2/catch.hpp>

#include "firmware/nvme_identify.h"
#include "firmware_test_util.h"
#include "html/sections.h"
#include "report/json_report.h"
#include "report/text_report.h"

using namespace ssdprobe;

namespace {

using firmware_test::kIdCtrlFnaOffset;
using firmware_test::kIdNsFlbasOffset;
using firmware_test::read_data_bytes;

// An `info` document of `path` whose namespace has format `flbas` in use.
ResultDocument document(const std::string& path, uint8_t flbas, uint8_t fna = 0) {
  auto ns = read_data_bytes("qemu72_nvme_id_ns_4k.bin");
  ns.at(kIdNsFlbasOffset) = flbas;
  auto ctrl = read_data_bytes("qemu72_nvme_id_ctrl.bin");
  ctrl.at(kIdCtrlFnaOffset) = fna;
  NvmeFirmwareData nvme;
  nvme.ns = decode_nvme_id_ns(ns);
  nvme.ctrl = decode_nvme_id_ctrl(ctrl);
  nvme.nsid = 1;
  ResultDocument doc;
  doc.path = path;
  doc.kind = TargetKind::block;
  doc.topology.disk_name = "nvme0n1";
  doc.topology.transport = "nvme";
  doc.firmware.nvme = nvme;
  return doc;
}

std::string recommendation_section(const std::string& text) {
  const size_t start = text.find("\nRecommendation\n");
  REQUIRE(start != std::string::npos);
  return text.substr(start);
}

}  // namespace

TEST_CASE("Text: the format comes first, under a destructive heading, its command pasteable") {
  const std::string text = recommendation_section(render_text(document("/dev/nvme0n1", 0), 0));
  const size_t heading = text.find("  To use the LBA format the drive rates best, reformat the namespace first (this "
                                   "destroys everything on it):\n");
  REQUIRE(heading != std::string::npos);
  const size_t command = text.find("\n     nvme format /dev/nvme0n1 --namespace-id=1 --lbaf=4\n");
  REQUIRE(command != std::string::npos);
  const size_t warning = text.find("     warning: erases every byte of namespace 1 (/dev/nvme0n1)");
  const size_t rebuild = text.find("To rebuild the disk from scratch instead");
  REQUIRE(warning != std::string::npos);
  REQUIRE(rebuild != std::string::npos);
  CHECK(heading < command);
  CHECK(command < warning);
  CHECK(warning < rebuild);
  CHECK(text.find("  - LBA format 0 is in use (512 B blocks") != std::string::npos);
}

TEST_CASE("Text: every namespace in the heading when FNA bit 0 is set; nothing when 4 KiB is in use") {
  const std::string all = recommendation_section(render_text(document("/dev/nvme0n1", 0, 0x01), 0));
  CHECK(all.find("(this destroys everything on every namespace of the drive):") != std::string::npos);
  const std::string none = recommendation_section(render_text(document("/dev/nvme0n1", 4), 0));
  CHECK(none.find("nvme format") == std::string::npos);
  CHECK(none.find("LBA format") == std::string::npos);
}

TEST_CASE("JSON: recommendations.lba_format with both formats, FNA and the step; null when 4 KiB is in use") {
  const auto j = to_json(document("/dev/nvme0n1", 0));
  const auto& advice = j["recommendations"]["lba_format"];
  REQUIRE(advice.is_object());
  CHECK(advice["in_use"] == nlohmann::ordered_json::parse(
                                R"({"index": 0, "data_bytes": 512, "metadata_bytes": 0, "rp": 0})"));
  CHECK(advice["suggested"]["index"] == 4);
  CHECK(advice["suggested"]["data_bytes"] == 4096);
  CHECK(advice["all_namespaces"] == false);
  CHECK(advice["why"].get<std::string>().rfind("LBA format 0 is in use", 0) == 0);
  CHECK(advice["step"]["key"] == "nvme_format");
  CHECK(advice["step"]["command"] == "nvme format /dev/nvme0n1 --namespace-id=1 --lbaf=4");
  CHECK(advice["step"]["destroys_data"] == true);
  CHECK(advice["step"]["warning"].get<std::string>().rfind("erases every byte of namespace 1", 0) == 0);
  CHECK(advice["step"]["alternative_group"].is_null());
  CHECK(to_json(document("/dev/nvme0n1", 4))["recommendations"]["lba_format"].is_null());
  CHECK(to_json(ResultDocument{})["recommendations"]["lba_format"].is_null());
}

TEST_CASE("HTML: the heading says what is destroyed, the warning precedes the command, the path is escaped") {
  const std::string hostile = "/dev/x<b>'y";
  const Json doc = Json::parse(to_json(document(hostile, 0)).dump());
  const std::string html = recommendations_section(doc);
  const size_t heading = html.find("<h3>First, reformat the namespace (this destroys everything on it)</h3>");
  REQUIRE(heading != std::string::npos);
  const size_t danger = html.find("<span class=\"danger\">destroys data: erases every byte of namespace 1");
  REQUIRE(danger != std::string::npos);
  const size_t command = html.find("<code>nvme format &#39;/dev/x&lt;b&gt;&#39;\\&#39;&#39;y&#39; --namespace-id=1");
  REQUIRE(command != std::string::npos);
  const size_t steps = html.find("<h3>Steps, in the order to run them</h3>");
  REQUIRE(steps != std::string::npos);
  CHECK(heading < danger);
  CHECK(danger < command);
  CHECK(command < steps);
  CHECK(html.find("<b>") == std::string::npos);
  const Json all = Json::parse(to_json(document("/dev/nvme0n1", 0, 0x01)).dump());
  CHECK(recommendations_section(all).find("(this destroys everything on every namespace of the drive)</h3>") !=
        std::string::npos);
  const Json none = Json::parse(to_json(document("/dev/nvme0n1", 4)).dump());
  CHECK(recommendations_section(none).find("reformat") == std::string::npos);
}
