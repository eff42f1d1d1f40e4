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
  CHECK(csv.find(",serial,'\t=1+1,") != std::string::npos);   // a TAB needs no RFC 4180 quotes
  CHECK(csv.find(",serial,\"'\r@x\",") != std::string::npos);  // a CR does
  CHECK(csv.find(",serial,'-2+3,") != std::string::npos);
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

namespace {

constexpr const char* kStopped = "run stopped in the read_parallelism phase (interrupted by signal 2)";

// A run of `run` that a signal stopped after its read grid (in the
// parallelism sweep): its read page and grid cells stand.
DocumentSummary partial_run(const std::string& model, const std::string& serial, double aligned_us) {
  DocumentSummary d = run(model, serial, 16384, aligned_us);
  d.stopped = kStopped;
  return d;
}

}  // namespace

TEST_CASE("a partial run is marked in every rendering and never the representative while a complete run exists") {
  // The partial run's aligned cell is the group's median: by latency alone it would be drawn.
  std::vector<DocumentSummary> docs{run("A", "s1", 16384, 50.0), partial_run("A", "s2", 60.0),
                                    run("A", "s3", 16384, 70.0)};
  FleetComparison c = compare_fleet(docs);
  const FleetGroup& g = only_group(c);
  CHECK(g.key_cells[0].spread.median_us == Approx(60.0));
  CHECK(g.timed_runs == 3);
  REQUIRE(g.partial_runs.size() == 1);
  CHECK(g.partial_runs[0] == std::pair<std::string, std::string>{"/results/s2.json", kStopped});
  CHECK(g.representative != "/results/s2.json");
  CHECK_FALSE(g.representative.empty());
  CHECK_FALSE(g.representative_partial);
  CHECK_FALSE(g.only_partial());
  CHECK(c.coverage.partial_runs == 1);
  CHECK(coverage_lines(c.coverage)[3].value.starts_with("3 timed runs (1 partial) and 0 info documents"));
  CHECK(g.read_page.agreed() == 16384u);

  const std::string listed = "1 of 3 timed runs stopped early: /results/s2.json: " + std::string(kStopped);
  CHECK(partial_text(g) == listed);
  const std::string text = render_text(c);
  INFO(text);
  CHECK(text.find("PARTIAL") != std::string::npos);
  CHECK(text.find("  partial       " + listed + "\n") != std::string::npos);
  const std::string md = render_markdown(c);
  CHECK(md.find("| runs | partial | info |") != std::string::npos);
  CHECK(md.find("| 3 | 1 | 0 |") != std::string::npos);
  CHECK(md.find("- partial: " + markdown_text(listed) + "\n") != std::string::npos);
  const std::string html = render_html(c, [](const FleetGroup&) { return std::string("<svg></svg>"); }, "");
  CHECK(html.find("<td class=\"n partial\" title=\"" + listed + "\">1</td>") != std::string::npos);
  CHECK(html.find("<tr><th>partial runs</th><td>" + listed + "</td></tr>") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(render_json(c));
  CHECK(j["coverage"]["partial_runs"] == 1);
  CHECK(j["groups"][0]["partial_runs"] == 1);
  CHECK(j["groups"][0]["partial"] ==
        nlohmann::json::parse(R"([{"file": "/results/s2.json", "stopped": ")" + std::string(kStopped) + "\"}]"));
  CHECK(j["groups"][0]["representative_partial"] == false);
  const std::string csv = render_csv(c);
  CHECK(csv.find(",partial_runs,partial,representative_partial,") != std::string::npos);
  CHECK(csv.find(",1,/results/s2.json: " + std::string(kStopped) + ",false,") != std::string::npos);

  // A run stopped before its read page was measured does not count against it.
  docs[1].read_page = UnitReading{"not_measured", std::nullopt};
  CHECK(compare_fleet(docs).groups[0].read_page.agreed() == 16384u);

  // A group without partial runs says none.
  const FleetComparison complete = compare_fleet({run("A", "s1", 16384)});
  CHECK(partial_text(complete.groups[0]) == "none");
  CHECK(render_text(complete).find("  partial       none\n") != std::string::npos);
}

TEST_CASE("a group of only partial runs says so, and draws one of them") {
  std::vector<DocumentSummary> docs{partial_run("A", "s1", 50.0), partial_run("A", "s2", 60.0)};
  docs[1].stopped = "run stopped in the write_grid phase (write failed)";
  const FleetComparison c = compare_fleet(docs);
  const FleetGroup& g = only_group(c);
  CHECK(g.only_partial());
  CHECK(g.representative_partial);
  CHECK_FALSE(g.representative.empty());
  CHECK(partial_short(g) == "2 (all)");
  CHECK(partial_text(g) == "all 2 timed runs stopped early: /results/s1.json: " + std::string(kStopped) +
                               "; /results/s2.json: run stopped in the write_grid phase (write failed)");
  CHECK(partial_text(g, 1).ends_with(std::string(kStopped) + " and 1 more"));
  const std::string text = render_text(c);
  INFO(text);
  CHECK(text.find("(partial: every timed run of the group stopped early)") != std::string::npos);
  CHECK(render_markdown(c).find("| 2 | 2 (all) | 0 |") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(render_json(c));
  CHECK(j["groups"][0]["representative_partial"] == true);
  const std::string html = render_html(c, [](const FleetGroup&) { return std::string("<svg></svg>"); }, "");
  CHECK(html.find("<span class=\"partial\">partial: every timed run of the group stopped early</span>") !=
        std::string::npos);
  // One partial run alone.
  CHECK(partial_text(compare_fleet({partial_run("A", "s1", 50.0)}).groups[0])
            .starts_with("the only timed run stopped early: /results/s1.json: "));
}

TEST_CASE("how a saved document says its run stopped early, in its phases or, from older writers, otherwise") {
  auto stopped = [](const std::string& rest) {
    return summarize_document(parse_saved_result(R"({"schema": "ssdprobe/1", "run": {})" + rest + "}", "doc.json",
                                                 GridDetail::none))
        .stopped;
  };
  // A signal: the interrupted phase, as the verdict words it.
  CHECK(stopped(R"(, "phases": [{"name": "read_grid", "state": "done", "reason": null},
      {"name": "write_grid", "state": "interrupted", "reason": "interrupted by signal 2"},
      {"name": "restore", "state": "done", "reason": null},
      {"name": "erase_stream", "state": "not_run", "reason": "interrupted by signal 2 during the write_grid phase"}])") ==
        "run stopped in the write_grid phase (interrupted by signal 2)");
  // An error: the failure before the first phase not run; an optional failure the run went on after is none.
  CHECK(stopped(R"(, "phases": [{"name": "read_parallelism", "state": "failed", "reason": "EIO"},
      {"name": "firmware", "state": "done"}, {"name": "write_grid", "state": "failed", "reason": "ENOSPC"},
      {"name": "audit", "state": "not_run", "reason": "stopped"}])") ==
        "run stopped in the write_grid phase (ENOSPC)");
  CHECK(stopped(R"(, "phases": [{"name": "read_parallelism", "state": "failed", "reason": "EIO"},
      {"name": "verdict", "state": "done"}])") == "");
  CHECK(stopped(R"(, "phases": [{"name": "read_grid", "state": "budget", "reason": "budget"},
      {"name": "write_grid", "state": "skipped", "reason": "no --write"}], "interrupted": false,
      "verdict": {"stopped": null})") == "");
  // Without phases: the verdict's own words, else the interrupted flag; neither: a complete run.
  CHECK(stopped(R"J(, "verdict": {"stopped": "run stopped in the erase_stream phase (x)"})J") ==
        "run stopped in the erase_stream phase (x)");
  CHECK(stopped(R"(, "interrupted": true)") == "run interrupted by a signal");
  CHECK(stopped("") == "");
  // Odd types are read leniently: never a reason to refuse the document.
  CHECK(stopped(R"(, "phases": [7, {"state": 3}, {"name": null, "state": "interrupted"}], "verdict": 1)") ==
        "run stopped early");
}

TEST_CASE("the summary's alignment is marked when the runs disagree") {
  std::vector<DocumentSummary> docs{run("A", "s1", 16384), run("A", "s2", 16384), run("A", "s3", 16384)};
  CHECK(alignment_short(compare_fleet(docs).groups[0]) == "1 MiB");
  docs[2].partition_alignment = 3u << 20;
  const FleetComparison c = compare_fleet(docs);
  CHECK(alignment_short(c.groups[0]) == "1 MiB in 2/3");
  const std::string text = render_text(c);
  INFO(text);
  CHECK(text.find(" 1 MiB in 2/3 ") != std::string::npos);
  CHECK(render_markdown(c).find("| 1 MiB in 2/3 |") != std::string::npos);
  CHECK(render_markdown(c).find("- alignment: 1 MiB (2), 3 MiB (1)\n") != std::string::npos);
  const std::string html = render_html(c, [](const FleetGroup&) { return std::string(); }, "");
  CHECK(html.find("<td class=\"u unsure\" title=\"1 MiB (2), 3 MiB (1)\">1 MiB in 2/3</td>") != std::string::npos);
}

TEST_CASE("a unit every run ruled out keeps how far they could see") {
  auto ruled_out = [](const std::string& serial, std::optional<uint64_t> reach) {
    DocumentSummary d = run("A", serial, std::nullopt);
    d.read_page = UnitReading{"absent", std::nullopt, reach};
    return d;
  };
  const FleetComparison same = compare_fleet({ruled_out("s1", 131072), ruled_out("s2", 131072)});
  const FleetGroup& g = same.groups[0];
  CHECK(unit_short(g.read_page) == "none up to 128 KiB");
  CHECK(unit_text(g.read_page) == "ruled out in 2/2 runs (up to 128 KiB)");
  CHECK(reported_vs_measured_text(g) == "min_io 512 B / no read page up to 128 KiB");
  const std::string text = render_text(same);
  INFO(text);
  CHECK(text.find(" none up to 128 KiB ") != std::string::npos);
  CHECK(render_markdown(same).find("| none up to 128 KiB |") != std::string::npos);
  CHECK(render_html(same, [](const FleetGroup&) { return std::string(); }, "")
            .find("title=\"ruled out in 2/2 runs (up to 128 KiB)\">none up to 128 KiB</td>") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(render_json(same));
  CHECK(j["groups"][0]["detected"]["read_page"]["ruled_out_up_to"] ==
        nlohmann::json::parse(R"([{"bytes": 131072, "runs": 2}])"));
  const std::string csv = render_csv(same);
  CHECK(csv.find(",read_page_ruled_out_up_to,write_unit_ruled_out_up_to,erase_block_ruled_out_up_to\r\n") !=
        std::string::npos);
  CHECK(csv.ends_with(",131072,,\r\n"));

  // Different reaches: as far as every run could see; each reach counted.
  const FleetGroup mixed = compare_fleet({ruled_out("s1", 131072), ruled_out("s2", 65536)}).groups[0];
  CHECK(unit_short(mixed.read_page) == "none up to 64 KiB");
  CHECK(unit_text(mixed.read_page) == "ruled out in 2/2 runs (up to 64 KiB in 1, 128 KiB in 1)");
  // A document that does not say how far: ruled out, with no reach claimed.
  const FleetGroup unknown = compare_fleet({ruled_out("s1", 131072), ruled_out("s2", std::nullopt)}).groups[0];
  CHECK(unit_short(unknown.read_page) == "ruled out");
  CHECK(unit_text(unknown.read_page) == "ruled out in 2/2 runs (up to 128 KiB in 1, not recorded in 1)");
  // Beside runs that found one or could not tell.
  const FleetGroup found = compare_fleet({run("A", "s1", 16384), ruled_out("s2", 131072)}).groups[0];
  CHECK(unit_text(found.read_page) == "16 KiB in 1/2 runs, 1 ruled out (up to 128 KiB)");
  const FleetGroup unsure = compare_fleet({run("A", "s1", std::nullopt), ruled_out("s2", 131072)}).groups[0];
  CHECK(unit_text(unsure.read_page) == "not determined in 1/2 runs, ruled out in 1 (up to 128 KiB)");
  CHECK(unit_short(unsure.read_page) == "not determined");
}
