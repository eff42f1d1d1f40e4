// The fleet comparison without files: grouping, agreement counting, key cell
// spreads, the quirk rule, and the escaping of untrusted document text in
// CSV, HTML, Markdown and JSON.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "compare/compare_render.h"
#include "compare/fleet_comparison.h"
#include "compare/quirk_table.h"
#include "compare/agreement_text.h"
#include "compare/coverage_text.h"
#include "compare/svg_compact.h"
#include "compare/text_escape.h"

using namespace ssdprobe;

namespace {

// A timed read-only run of a drive that reports 512 B everywhere.
DocumentSummary run(const std::string& model, const std::string& serial, std::optional<uint64_t> page,
                    double aligned_us = 60.0, double straddle_us = 105.0) {
  DocumentSummary d;
  d.file = "/results/" + serial + ".json";
  d.timed = true;
  d.model = model;
  d.firmware = "FW1";
  d.serial = serial;
  d.size_bytes = 1ull << 36;
  d.logical_block = d.physical_block = d.minimum_io = 512;
  d.optimal_io = 0;
  d.read_page = page ? UnitReading{"found", page} : UnitReading{"undetermined", std::nullopt};
  d.write_unit = d.erase_block = UnitReading{"not_measured", std::nullopt};
  d.mismatch_fields = {"minimum_io_size"};
  d.partition_alignment = 1 << 20;
  d.cells.read_size = 4096;
  d.cells.read_aligned_us = aligned_us;
  for (uint64_t p = 4096; p <= 131072; p *= 2) d.cells.read_straddle_us.emplace_back(p, p == 16384 ? straddle_us : aligned_us);
  return d;
}

DocumentSummary info_document(const std::string& model, const std::string& serial) {
  DocumentSummary d = run(model, serial, std::nullopt);
  d.timed = false;
  d.read_page = UnitReading{"not_measured", std::nullopt};
  d.physical_block = 4096;
  d.firmware_geometry = {{"nvme.npwg_bytes", 16384}};
  d.mismatch_fields.clear();
  d.cells = {};
  return d;
}

const FleetGroup& only_group(const FleetComparison& c) {
  REQUIRE(c.groups.size() == 1);
  return c.groups.front();
}

}  // namespace

TEST_CASE("documents group by model, firmware and capacity; drives are distinct serials") {
  std::vector<DocumentSummary> docs{run("A", "s1", 16384), run("A", "s1", 16384), run("A", "s2", 16384),
                                    run("B", "s3", 8192)};
  docs.push_back(run("A", "s4", 16384));
  docs.back().firmware = "FW2";
  docs.push_back(run("A", "s5", 16384));
  docs.back().size_bytes *= 2;
  docs.push_back(run("A", "", 16384));  // no serial: a drive of its own
  docs.push_back(run("A", "", 16384));
  const FleetComparison c = compare_fleet(docs);
  REQUIRE(c.documents == 8);
  REQUIRE(c.groups.size() == 4);
  const FleetGroup& a = c.groups[0];
  CHECK(a.model == "A");
  CHECK(a.firmware == "FW1");
  CHECK(a.size_bytes == 1ull << 36);
  CHECK(a.documents == 5);
  CHECK(a.timed_runs == 5);
  CHECK(a.drives == 4);  // s1, s2 and two without a serial
  CHECK(c.groups[1].size_bytes == 1ull << 37);
  CHECK(c.groups[2].firmware == "FW2");
  CHECK(c.groups[3].model == "B");
}

TEST_CASE("agreement counts found sizes over the runs that measured the unit") {
  std::vector<DocumentSummary> docs;
  for (int i = 0; i < 11; ++i) docs.push_back(run("A", "s" + std::to_string(i), 16384));
  docs.push_back(run("A", "s11", std::nullopt));  // measured, nothing found
  docs.push_back(info_document("A", "s12"));      // reported geometry only
  const FleetComparison c = compare_fleet(docs);
  const FleetGroup& g = only_group(c);
  CHECK(g.documents == 13);
  CHECK(g.timed_runs == 12);
  CHECK(g.info_documents == 1);
  CHECK(g.read_page.runs == 12);
  CHECK(g.read_page.top_bytes() == 16384u);
  CHECK(g.read_page.top_count() == 11);
  CHECK(g.read_page.not_determined == 1);
  CHECK(g.read_page.measured() == 12);
  CHECK(g.read_page.agreed() == 16384u);  // 11/12 = 92 % >= 80 %
  CHECK(g.write_unit.not_measured == 12);
  CHECK_FALSE(g.write_unit.agreed());
  // The info document counts for the reported geometry (and its firmware fields).
  CHECK(g.physical_block.total == 13);
  REQUIRE(g.physical_block.entries.size() == 2);
  CHECK(g.physical_block.entries[0].bytes == 512u);
  CHECK(g.physical_block.entries[0].count == 12);
  CHECK(g.physical_block.entries[1].bytes == 4096u);
  REQUIRE(g.firmware_geometry.size() == 1);
  CHECK(g.firmware_geometry[0].first == "nvme.npwg_bytes");
  CHECK(g.firmware_geometry[0].second.total == 1);
  // ...but not for the recommended alignment nor for mismatches it does not have.
  CHECK(g.partition_alignment.total == 12);
  REQUIRE(g.mismatches.size() == 1);
  CHECK(g.mismatches[0] == std::pair<std::string, uint32_t>{"minimum_io_size", 12});
}

TEST_CASE("the agreement rule is 80 % of the runs that measured the unit, exactly at the edge") {
  UnitAgreement u;
  for (int i = 0; i < 4; ++i) u.add({"found", 16384});
  u.add({"found", 8192});
  u.found.finish();
  CHECK(u.agreed() == 16384u);  // 4/5 = 80 %
  u.add({"absent", std::nullopt});
  CHECK_FALSE(u.agreed());      // 4/6 = 67 %
  u.add({"not_measured", std::nullopt});
  CHECK(u.measured() == 6);
  CHECK_FALSE(u.agreed());
  CHECK_FALSE(u.agreed(kQuirkMinRuns + 10));
}

TEST_CASE("key cells: median and p10-p90 over runs, straddling the agreed read page") {
  std::vector<DocumentSummary> docs;
  for (int i = 0; i < 10; ++i) docs.push_back(run("A", "s" + std::to_string(i), 16384, 50.0 + i, 100.0 + 2 * i));
  const FleetComparison c = compare_fleet(docs);
  const FleetGroup& g = only_group(c);
  REQUIRE(g.key_cells.size() == 4);
  const KeyCell& aligned = g.key_cells[0];
  CHECK(aligned.key == "read_aligned");
  CHECK(aligned.size == 4096);
  CHECK(aligned.offset == 0);
  CHECK(aligned.spread.runs == 10);
  CHECK(aligned.spread.median_us == Approx(54.5));
  CHECK(aligned.spread.p10_us == Approx(50.9));
  CHECK(aligned.spread.p90_us == Approx(58.1));
  const KeyCell& straddle = g.key_cells[1];
  CHECK(straddle.key == "read_straddle");
  CHECK(straddle.offset == 16384 - 2048);
  CHECK(straddle.spread.median_us == Approx(109.0));
  CHECK(g.key_cells[2].spread.runs == 0);  // no write grid
  // The representative run is the one nearest the group's aligned median.
  CHECK((g.representative == "/results/s4.json" || g.representative == "/results/s5.json"));
}

TEST_CASE("the quirk table lists only agreed units that contradict what the drive reports") {
  std::vector<DocumentSummary> docs;
  for (int i = 0; i < 3; ++i) docs.push_back(run("Agreed", "a" + std::to_string(i), 16384));
  for (int i = 0; i < 2; ++i) docs.push_back(run("TooFew", "t" + std::to_string(i), 16384));
  for (int i = 0; i < 5; ++i) docs.push_back(run("Split", "p" + std::to_string(i), i < 3 ? 16384 : 8192));
  for (int i = 0; i < 3; ++i) {
    docs.push_back(run("Honest", "h" + std::to_string(i), 16384));
    docs.back().physical_block = docs.back().minimum_io = 16384;
  }
  const std::vector<QuirkRow> rows = quirk_table(compare_fleet(docs));
  REQUIRE(rows.size() == 1);  // TooFew: 2 runs < 3; Split: 3/5 = 60 %; Honest: reports 16 KiB already
  CHECK(rows[0].model == "Agreed");
  CHECK(rows[0].read_page == 16384u);
  CHECK_FALSE(rows[0].write_unit);
  CHECK(rows[0].physical_block_bytes == 16384u);
  CHECK(rows[0].ashift == 14u);
  CHECK(rows[0].physical_block == 512u);
  REQUIRE(rows[0].reasons.size() == 2);
  CHECK(rows[0].reasons[0] == "physical_block_size 512 B < 16 KiB (measured 16 KiB read page)");
  CHECK_FALSE(rows[0].optimal_io_bytes);  // the erase block is no optimal IO size
  const std::string csv = render_quirks_csv(rows);
  CHECK(csv.find("Agreed,FW1,68719476736,3,3,512,512,512,0,,16384,,,16384,14,,") != std::string::npos);
}

TEST_CASE("CSV fields are quoted as RFC 4180 says") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("") == "");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field(" padded") == "\" padded\"");
  CHECK(csv_field("bad\xff") == "bad\\xff");
  // A whole row: a hostile model stays one field.
  std::vector<DocumentSummary> docs{run("Evil, \"Inc\"\nSSD", "s1", 16384)};
  const std::string csv = render_csv(compare_fleet(docs));
  const size_t second_line = csv.find("\r\n") + 2;
  CHECK(csv.substr(second_line).starts_with("\"Evil, \"\"Inc\"\"\nSSD\",FW1,"));
}

TEST_CASE("CSV text cells a spreadsheet would evaluate as a formula start with a single quote") {
  // OWASP's list: = + - @, TAB and CR. A model, firmware, firmware field
  // name, mismatch field and file name of a document, and a serial as a
  // model-less group's identity.
  std::vector<DocumentSummary> docs;
  for (int i = 0; i < 3; ++i) {
    docs.push_back(run("=HYPERLINK(\"http://evil.example/\",\"open\")", "s" + std::to_string(i), 16384, -5.0));
    docs.back().firmware = "+1+1";
    docs.back().firmware_geometry = {{"@geometry", 16384}};
    docs.back().mismatch_fields = {"-field"};
    docs.back().file = "=cmd.json";
  }
  for (const char* serial : {"\t=1+1", "\r@x", "-2+3"}) docs.push_back(run("", serial, 4096));
  const FleetComparison c = compare_fleet(docs);
  const std::string csv = render_csv(c);
  INFO(csv);
  CHECK(csv.find("\r\n\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"open\"\")\",'+1+1,68719476736,3,") !=
        std::string::npos);
  CHECK(csv.find(",'@geometry=16384,") != std::string::npos);
  CHECK(csv.find(",'-field:3,") != std::string::npos);
  CHECK(csv.find(",'=cmd.json,model,") != std::string::npos);
  CHECK(csv.find(",serial,'\t=1+1\r\n") != std::string::npos);   // a TAB needs no RFC 4180 quotes
  CHECK(csv.find(",serial,\"'\r@x\"\r\n") != std::string::npos);  // a CR does
  CHECK(csv.find(",serial,'-2+3\r\n") != std::string::npos);
  // A number ssdprobe wrote stays a number, a negative one too (a median from a hostile document).
  CHECK(csv.find(",3,-5.000,-5.000,-5.000,") != std::string::npos);
  // Text that merely holds such a character further in is left alone.
  CHECK(render_csv(compare_fleet({run("Disk-1 =x", "q", 16384)})).find("\r\nDisk-1 =x,FW1,") != std::string::npos);

  const std::string quirks = render_quirks_csv(quirk_table(c));
  INFO(quirks);
  CHECK(quirks.find("\r\n\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"open\"\")\",'+1+1,68719476736,3,3,") !=
        std::string::npos);
  CHECK(quirks.find(",'@geometry=16384,") != std::string::npos);
}

TEST_CASE("JSON keeps document text as text, invalid UTF-8 as \\xHH") {
  // A model may hold anything JSON must escape; only file names can hold
  // invalid UTF-8 (the reader refuses such documents), and nlohmann's dump()
  // would throw on it, so it must arrive as the text \xHH.
  const std::string model = "q\"b\\n\n\x01\x7f<x> \xc3\xa9";
  std::vector<DocumentSummary> docs{run(model, "s\xff" "1", 16384)};
  FleetComparison c = compare_fleet(docs);
  c.skipped.push_back("/r/x\xfe.json: is empty");
  const nlohmann::json j = nlohmann::json::parse(render_json(c));  // throws on invalid JSON or UTF-8
  CHECK(j["schema"] == "ssdprobe-compare/1");
  CHECK(j["groups"][0]["model"] == model);
  CHECK(j["groups"][0]["representative"] == "/results/s\\xff1.json");
  CHECK(j["skipped"][0] == "/r/x\\xfe.json: is empty");
  // Latencies are numbers rounded to 3 decimals (60 us exactly stays a number).
  CHECK(j["groups"][0]["key_cells"][0]["median_us"].is_number());
  CHECK(j["groups"][0]["key_cells"][0]["median_us"] == 60.0);
  CHECK(j["groups"][0]["key_cells"][2]["median_us"].is_null());  // no write grid

  const nlohmann::json q = nlohmann::json::parse(render_quirks_json(quirk_table(c)));
  CHECK(q["schema"] == "ssdprobe-quirks/1");
  CHECK(q["min_runs"] == kQuirkMinRuns);
}

TEST_CASE("HTML, Markdown and JSON escape text from documents") {
  CHECK(html_text("<script>alert('x')</script> & \"q\"") ==
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  CHECK(html_text("bell\x07") == "bell\\x07");
  CHECK(markdown_text("a|b*c_d`e<f>") == "a\\|b\\*c\\_d\\`e\\<f\\>");

  std::vector<DocumentSummary> docs{run("<img src=x onerror=alert(1)>", "s1", 16384)};
  docs[0].firmware = "<b>1</b>";
  FleetComparison c = compare_fleet(docs);
  c.skipped.push_back("/r/<evil>.json: is empty");
  const std::string html = render_html(c, [](const FleetGroup&) { return std::string("<svg></svg>"); }, "scale");
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("<b>1") == std::string::npos);
  CHECK(html.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
  CHECK(html.find("/r/&lt;evil&gt;.json: is empty") != std::string::npos);
  CHECK(html.find("<svg></svg>") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("://") == std::string::npos);  // nothing fetched: no external address at all
  const std::string md = render_markdown(c);
  CHECK(md.find("\\<img src=x onerror=alert(1)\\>") != std::string::npos);
  const std::string json = render_json(c);
  CHECK(json.find("\"model\": \"<img src=x onerror=alert(1)>\"") != std::string::npos);
}

TEST_CASE("drives without a model are grouped by serial, else WWID, else host and path; never by capacity alone") {
  auto no_model = [](const std::string& serial, const std::string& wwid, const std::string& host,
                     const std::string& path) {
    DocumentSummary d = run("", serial, 4096);
    d.wwid = wwid;
    d.hostname = host;
    d.path = path;
    return d;
  };
  // Same capacity and firmware throughout: only the drive's identity tells them apart.
  std::vector<DocumentSummary> docs{no_model("V1", "", "h1", "/dev/vda"), no_model("V2", "", "h1", "/dev/vdb"),
                                    no_model("V1", "", "h2", "/dev/vda"),  // same serial: the same drive
                                    no_model("", "eui.00aa", "h1", "/dev/vdc"),
                                    no_model("", "", "h1", "/dev/vdd"), no_model("", "", "h2", "/dev/vdd"),
                                    no_model("", "", "h2", "/dev/vdd")};
  const FleetComparison c = compare_fleet(docs);
  REQUIRE(c.groups.size() == 5);
  std::vector<std::string> names;
  for (const FleetGroup& g : c.groups) names.push_back(group_name(g));
  CHECK(names == std::vector<std::string>{"(no model, serial V1)", "(no model, serial V2)", "(no model, WWID eui.00aa)",
                                          "(no model, h1:/dev/vdd)", "(no model, h2:/dev/vdd)"});
  CHECK(c.groups[0].documents == 2);
  CHECK(c.groups[0].drives == 1);
  CHECK(c.groups[0].grouped_by == GroupedBy::serial);
  CHECK(c.groups[2].grouped_by == GroupedBy::wwid);
  CHECK(c.groups[4].grouped_by == GroupedBy::path);
  CHECK(c.groups[4].documents == 2);
  CHECK(c.groups[4].drives == 1);  // two runs of one host's /dev/vdd
  CHECK(render_markdown(c).find("| (no model, serial V1) |") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(render_json(c));
  CHECK(j["groups"][3]["grouped_by"] == "path");
  CHECK(j["groups"][3]["identity"] == "h1:/dev/vdd");
}

TEST_CASE("reported vs measured: min_io beside the agreed read page and write unit, opt_io beside the erase block") {
  std::vector<DocumentSummary> docs{run("A", "s1", 16384), run("A", "s2", 16384)};
  CHECK(reported_vs_measured_text(compare_fleet(docs).groups[0]) == "min_io 512 B / read page 16 KiB");
  for (DocumentSummary& d : docs) {
    d.write_unit = UnitReading{"found", 65536};
    d.erase_block = UnitReading{"found", 4u << 20};
  }
  docs[1].minimum_io = 16384;
  const FleetGroup g = compare_fleet(docs).groups[0];
  const std::vector<ReportedMeasured> pairs = reported_vs_measured(g);
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].reported == "min_io 512 B in 1/2");  // the most frequent value; ties: the smaller
  CHECK(pairs[0].measured == "read page 16 KiB, write unit 64 KiB");
  CHECK(pairs[0].reported_too_small);
  CHECK(pairs[1].reported == "opt_io 0 B");
  CHECK(pairs[1].measured == "erase block 4 MiB");
  CHECK(pairs[1].reported_too_small);
  // Nothing agreed: the read page's short form, and nothing called too small.
  std::vector<DocumentSummary> unsure{run("B", "s1", std::nullopt), run("B", "s2", std::nullopt)};
  const std::vector<ReportedMeasured> none = reported_vs_measured(compare_fleet(unsure).groups[0]);
  REQUIRE(none.size() == 1);
  CHECK(none[0].measured == "read page not determined");
  CHECK_FALSE(none[0].reported_too_small);
}

TEST_CASE("the coverage header: versions, hosts and the first and last start") {
  std::vector<DocumentSummary> docs{run("A", "s1", 16384), run("A", "s2", 16384), info_document("A", "s3")};
  docs[0].tool_version = docs[1].tool_version = "0.1.0";
  docs[2].tool_version = "0.0.9";
  docs[0].hostname = "beta";
  docs[1].hostname = "alpha";
  docs[0].started_at = "2026-11-20T08:00:00Z";
  docs[1].started_at = "2026-11-26T12:00:00Z";
  docs[2].started_at = "2026-11-21T00:00:00Z";
  FleetComparison c = compare_fleet(docs);
  c.coverage.made_at = "2026-11-26T13:00:00Z";
  c.coverage.compared_by = "0.1.1";
  const std::vector<CoverageLine> lines = coverage_lines(c.coverage, 1);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].value == "2026-11-26T13:00:00Z by ssdprobe 0.1.1");
  CHECK(lines[1].value == "ssdprobe 0.1.0 (2 documents), ssdprobe 0.0.9 (1 document)");
  CHECK(lines[2].value == "2: alpha and 1 more; 1 document without a hostname");
  CHECK(lines[3].value == "2 timed runs and 1 info document, started 2026-11-20T08:00:00Z to 2026-11-26T12:00:00Z");
  const nlohmann::json j = nlohmann::json::parse(render_json(c));
  CHECK(j["made_at"] == "2026-11-26T13:00:00Z");
  CHECK(j["ssdprobe_version"] == "0.1.1");
  CHECK(j["coverage"]["hosts"] == nlohmann::json::array({"alpha", "beta"}));
  CHECK(j["coverage"]["first_started_at"] == "2026-11-20T08:00:00Z");
  const std::string html = render_html(c, [](const FleetGroup&) { return std::string(); }, "one scale");
  CHECK(html.find("<tr id=\"coverage-made\"><th>made</th><td>2026-11-26T13:00:00Z by ssdprobe 0.1.1</td></tr>") !=
        std::string::npos);
  CHECK(html.find("<p id=\"colour-scale\">one scale</p>") != std::string::npos);
  CHECK(render_text(c).find("  hosts       2: alpha, beta; 1 document without a hostname\n") != std::string::npos);
}

TEST_CASE("heatmap cells become short paths: same picture, same order, far fewer bytes") {
  const std::string cell_a = "\t\t<polygon fill = 'rgb( 40,  10,  78)' points = '80.00,475.00 82.73,475.00 82.73,419.71 80.00,419.71 '/>\n";
  const std::string cell_b = "\t\t<polygon fill = 'rgb( 40,  10,  78)' points = '81.72,475.00 84.45,475.00 84.45,419.71 81.72,419.71 '/>\n";
  const std::string cell_c = "\t\t<polygon fill = 'rgb(255, 255, 255)' points = '83.44,475.00 86.17,475.00 86.17,419.71 83.44,419.71 '/>\n";
  const std::string cell_d = "\t\t<polygon fill = 'rgb( 40,  10,  78)' points = '80.00,419.71 82.73,419.71 82.73,364.00 80.00,364.00 '/>\n";
  const std::string other = "<polygon fill = 'rgb(200, 200, 200)' points = '80.00,475.00 519.98,475.00 519.98,95.02 80.00,95.02 40,40 '/>";
  const std::string svg = "<svg><g>" + other + "</g><g>" + cell_a + cell_b + cell_c + cell_d + "</g></svg>";
  const std::string out = compact_svg_cells(svg);
  // a and b (one row, one colour, overlapping) merge; c is drawn after them
  // and before d, which keeps its own path so c cannot cover it.
  CHECK(out == "<svg><g>" + other + "</g><g>\t\t<path fill=\"#280a4e\" d=\"M80 475h4.45v-55.29h-4.45z\"/>\n"
               "<path fill=\"#ffffff\" d=\"M83.44 475h2.73v-55.29h-2.73z\"/>\n"
               "<path fill=\"#280a4e\" d=\"M80 419.71h2.73v-55.71h-2.73z\"/>\n\n</g></svg>");
  CHECK(compact_svg_cells("<svg>no cells</svg>") == "<svg>no cells</svg>");
}

TEST_CASE("a document's hostname and WWID (NVMe nguid, else eui64; all zeros is none) reach the summary") {
  const DocumentSummary both = summarize_document(parse_saved_result(
      R"({"schema": "ssdprobe/1", "hostname": "h1", "target": {"path": "/dev/nvme0n1", "model": null},
          "reported": {"nvme": {"nguid": "00000000000000000000000000000000", "eui64": "0025385b71b2c3d4"}}})",
      "doc.json", GridDetail::none));
  CHECK(both.hostname == "h1");
  CHECK(both.path == "/dev/nvme0n1");
  CHECK(both.wwid == "0025385b71b2c3d4");
  const DocumentSummary none = summarize_document(parse_saved_result(
      R"({"schema": "ssdprobe/1.3", "hostname": null, "reported": {"nvme": null}})", "doc.json", GridDetail::none));
  CHECK(none.hostname.empty());
  CHECK(none.wwid.empty());
}
