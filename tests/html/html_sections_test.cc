// The report page's section builders on small documents: what a reader of
// the ticket checks (the verdict word for word, the audit's costs with their
// intervals and the fix's warnings, the reasons for empty parts) and that a
// document's text never becomes markup.
#include <catch2/catch.hpp>

#include "html/page.h"
#include "html/sections.h"

using namespace ssdprobe;

namespace {

Json misaligned_audit() {
  return Json::parse(R"J({
    "available": true, "disk": "/dev/sdz", "disk_size_bytes": 1073741824, "all_ok": false,
    "units": {"read_page": 16384, "write_unit": null, "erase_block": null, "alignment": 1048576},
    "checks": [{
      "field": "partition[1].start", "layer": "partition 1 (/dev/sdz1)", "value_bytes": 32256, "ok": false,
      "severity": "error", "misses": [{"unit": "4 KiB", "unit_bytes": 4096, "remainder_bytes": 3584}],
      "suggested_bytes": 1048576, "message": "starts at sector 63",
      "costs": [{"op": "read", "grid": "read", "request_bytes": 4096, "determined": true, "ratio": 1.094,
                 "ratio_low": 1.051, "ratio_high": 1.127, "significant": true, "evidence": "from 12 cells"}],
      "fix": [{"command": "echo '2048,' | sfdisk --move-data /dev/sdz -N 1", "purpose": "move it",
               "destroys_data": false, "moves_data": true, "cost": "moves 96 MiB"},
              {"command": "mkfs.ext4 /dev/sdz1", "purpose": "recreate", "destroys_data": true,
               "moves_data": false, "cost": "needs a backup"}]}],
    "at": [], "notes": []})J");
}

}  // namespace

TEST_CASE("the verdict section has the summary word for word, escaped, and says why findings are empty") {
  Json doc = Json::parse(R"J({"verdict": {"summary": "OK: read page 16 KiB; a < b & c", "units": [],
    "findings": [], "first_action": null, "cautions": [], "stopped": null},
    "audit": {"available": false, "reason": "sim:x is a simulated drive: there is no layout on it to audit"}})J");
  const std::string html = verdict_section(doc);
  CHECK(html.find("OK: read page 16 KiB; a &lt; b &amp; c</p>") != std::string::npos);
  CHECK(html.find("no audit findings: no audit: sim:x is a simulated drive") != std::string::npos);
  CHECK(html.find("nothing to do first") != std::string::npos);
  CHECK(html.find("not stopped: every phase had its turn") != std::string::npos);
}

TEST_CASE("the audit section prices a misaligned start with its interval and warns before a destructive fix") {
  Json doc;
  doc["audit"] = misaligned_audit();
  const std::string html = audit_section(doc);
  CHECK(html.find("1.09x (95 % 1.05-1.13)") != std::string::npos);
  CHECK(html.find("4 KiB (by 3.5 KiB)") != std::string::npos);
  CHECK(html.find("moves data: do not interrupt") != std::string::npos);
  const size_t danger = html.find("destroys data");
  REQUIRE(danger != std::string::npos);
  CHECK(danger < html.find("mkfs.ext4 /dev/sdz1"));  // the warning comes before the command
  CHECK(html.find("<code>echo &#39;2048,&#39; | sfdisk") != std::string::npos);
}

TEST_CASE("the audit section says why there is no audit") {
  Json doc = Json::parse(R"J({"audit": {"available": false, "reason": "sim:x has no layout", "at": []}})J");
  CHECK(audit_section(doc).find("no audit: sim:x has no layout") != std::string::npos);
  CHECK(audit_section(Json::parse(R"J({"audit": null})J")).find("this command does no layout audit") !=
        std::string::npos);
}

TEST_CASE("the context section quotes the command line for a shell and escapes every text") {
  Json doc = Json::parse(R"J({"hostname": "db7", "command_line": ["ssdprobe", "--json", "a b.json", "<script>x</script>"],
    "target": {"path": "/dev/sdz", "kind": "block", "transport": "sata", "model": "<script>alert(1)</script>",
               "serial": null, "size_bytes": 1073741824},
    "run": null, "phases": [{"name": "read_grid", "state": "done", "reason": null, "device_time_s": 1.5,
      "other_io": {"disk": "sdz", "reads": 12, "read_bytes": 3145728, "writes": 0, "write_bytes": 0,
                   "own": {"reads": 100, "read_bytes": 409600, "writes": 0, "write_bytes": 0}}}]})J");
  const std::string html = context_section(doc);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("ssdprobe --json &#39;a b.json&#39;") != std::string::npos);
  CHECK(html.find("serial</td><td>not reported") != std::string::npos);
  CHECK(html.find("on sdz: 12 reads, 3 MiB read") != std::string::npos);
  CHECK(html.find("no timing IO") != std::string::npos);
}

TEST_CASE("a missing picture keeps its place and says why; no pictures says why") {
  const std::vector<ReportPicture> pictures{{"picture-read", "Read", "caption", "", "gnuplot is not installed"}};
  const std::string html = pictures_section(Json::parse(R"J({"options": {"write": false}})J"), pictures);
  CHECK(html.find("<figure id=\"picture-read\">") != std::string::npos);
  CHECK(html.find("No picture: gnuplot is not installed") != std::string::npos);
  CHECK(html.find("not measured: run without --write") != std::string::npos);
  CHECK(pictures_section(Json::parse(R"J({"grids": []})J"), {}).find("no pictures: the document has no timed grid") !=
        std::string::npos);
}

TEST_CASE("the evidence section gives each unit's state in words and its evidence") {
  Json doc = Json::parse(R"J({"detected": {"read_page": {"state": "absent", "bytes": null,
    "evidence": "no level above 1 % up to 128 KiB"}, "erase_block": {"state": "not_measured", "bytes": null,
    "evidence": "not measured: rerun with --write", "to_determine": "rerun with --write"}}, "notes": []})J");
  const std::string html = evidence_section(doc);
  CHECK(html.find("<h3>read page: ruled out</h3>") != std::string::npos);
  CHECK(html.find("<h3>erase block: not measured</h3>") != std::string::npos);
  CHECK(html.find("To determine: rerun with --write") != std::string::npos);
  CHECK(html.find("no notes") != std::string::npos);
}

TEST_CASE("an empty table is a note saying why") {
  CHECK(html_table("x", {"a"}, {}, "nothing here because") == "<p class=\"empty\">nothing here because</p>\n");
}
