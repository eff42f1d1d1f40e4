// The verdict's rules on documents built by hand: what it leads with, the
// four answers and what would tell, "the defaults are right" only on a clean
// disk, and the text's first line being verdict.summary.
#include <catch2/catch.hpp>
#include <string>

#include "report/json_report.h"
#include "report/text_report.h"
#include "report/verdict_render.h"
#include "run/verdict_builder.h"

using namespace ssdprobe;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

ResultDocument timed_doc() {
  ResultDocument doc;
  doc.path = "/dev/sdz";
  doc.phases.push_back({"read_grid", PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.read_page = {16384, UnitState::found, 0.998, "e", {}, "", {}, {}, {}, {}, {}, 0.0, {}};
  return doc;
}

AuditLine bad_start(Severity severity, double ratio) {
  AuditLine line;
  line.field = severity == Severity::error ? "partition[1].start" : "partition[2].start";
  line.layer = severity == Severity::error ? "partition 1 (/dev/sdz1)" : "partition 2 (/dev/sdz2)";
  line.disk_offset = severity == Severity::error ? 32256 : 8192;
  line.ok = false;
  line.severity = severity;
  line.misses = {{severity == Severity::error ? "4 KiB" : "read page", severity == Severity::error ? 4096u : 16384u,
                  severity == Severity::error ? 3584u : 8192u}};
  line.message = "misaligned";
  AuditCost cost;
  cost.op = "read";
  cost.request_bytes = 4096;
  cost.cost.determined = true;
  cost.cost.significant = true;
  cost.cost.ratio = ratio;
  cost.cost.ratio_low = ratio - 0.02;
  cost.cost.ratio_high = ratio + 0.02;
  line.costs.push_back(cost);
  line.fix.push_back({"echo '2048,' | sfdisk --move-data /dev/sdz -N 1", "move it", false, true, "moves 1 GiB"});
  return line;
}

ResultDocument with_findings(std::vector<AuditLine> lines) {
  ResultDocument doc = timed_doc();
  AuditSection audit;
  audit.layout = LayoutAudit{};
  audit.layout->lines = std::move(lines);
  doc.audit = audit;
  return doc;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The status line and the lines under it, as the text report opens.
std::string block(const Verdict& v) {
  std::string out = v.summary;
  for (const auto& line : v.lines) out += "\n  " + line;
  return out;
}

// At most three lines under the status line, none past ~100 characters.
void check_short(const Verdict& v) {
  CHECK(v.lines.size() <= 3);
  CHECK(v.summary.size() <= 100);
  for (const auto& line : v.lines) CHECK(line.size() <= 100);
}

const RunFacts kReadOnly{true, false, 60.0, false, {}};

}  // namespace

TEST_CASE("the worst finding leads, errors before warnings whatever their costs, with cost and first fix") {
  ResultDocument doc = with_findings({bad_start(Severity::warning, 1.9), bad_start(Severity::error, 1.09)});
  doc.verdict = build_verdict(doc, RunFacts{true, false, 60.0, false, {}});
  const Verdict& v = doc.verdict;
  REQUIRE(v.findings.size() == 2);
  CHECK(v.findings[0].severity == Severity::error);
  CHECK(v.findings_by_severity[static_cast<size_t>(Severity::error)] == 1);
  CHECK(v.summary.rfind("ACTION: partition 1 (/dev/sdz1) starts at 32256 B", 0) == 0);
  CHECK(has(v.summary, "costs up to 1.09x"));
  CHECK(has(render_text(doc), "  - audit: 1 error, 1 warning, 0 notes; each is below, with its fix"));
  REQUIRE_FALSE(v.lines.empty());
  CHECK(v.lines[0] == "first: echo '2048,' | sfdisk --move-data /dev/sdz -N 1");
  CHECK_FALSE(has(block(v), "suit this drive"));
  check_short(v);
  CHECK_FALSE(v.defaults_right);
  REQUIRE(v.first_action);
  CHECK(v.first_action->command == "echo '2048,' | sfdisk --move-data /dev/sdz -N 1");
  CHECK(first_line(render_text(doc)) == v.summary);
  CHECK(render_text(doc).rfind(block(v) + "\n", 0) == 0);
  CHECK(to_json(doc)["verdict"]["summary"] == v.summary);
  CHECK(to_json(doc)["verdict"]["lines"].size() == v.lines.size());
}

TEST_CASE("the defaults are right only with a unit found, nothing misaligned and 4 KiB IO costing a block") {
  ResultDocument doc = timed_doc();
  doc.read_page.bytes = 4096;
  doc.verdict = build_verdict(doc, RunFacts{true, false, 60.0, false, {}});
  CHECK(doc.verdict.defaults_right);
  CHECK(doc.verdict.summary == "OK: nothing to change: 1 MiB partition alignment and 4 KiB blocks suit this drive");
  check_short(doc.verdict);

  ResultDocument page16 = timed_doc();
  page16.verdict = build_verdict(page16, RunFacts{true, false, 60.0, false, {}});
  CHECK_FALSE(page16.verdict.defaults_right);
  CHECK(page16.verdict.summary == "OK: nothing to change");
  CHECK(has(block(page16.verdict), "advice: partitions at multiples of 1 MiB, 16 KiB blocks (ZFS ashift 14)"));
  CHECK(has(block(page16.verdict), "units: read page 16 KiB"));
  check_short(page16.verdict);

  ResultDocument info_doc;
  info_doc.path = "/dev/sdz";
  info_doc.verdict = build_verdict(info_doc, RunFacts{false, false, 60.0, false, {}});
  CHECK(info_doc.verdict.summary.rfind("INCONCLUSIVE: nothing measured", 0) == 0);
  CHECK_FALSE(info_doc.verdict.defaults_right);
}

TEST_CASE("a unit not determined says what would tell; a ruled-out one how far it was ruled out") {
  ResultDocument doc = timed_doc();
  doc.phases[0].state = PhaseState::budget;
  doc.read_page = {};
  doc.read_page.state = UnitState::undetermined;
  doc.verdict = build_verdict(doc, RunFacts{true, false, 60.0, false, {}});
  CHECK(doc.verdict.units[0].answer == UnitAnswer::not_determined);
  CHECK(doc.verdict.units[0].to_determine == "rerun with --budget 120");
  CHECK(doc.read_page.to_determine == "rerun with --budget 120");
  CHECK(doc.verdict.summary == "INCONCLUSIVE: read page not determined: the advice below rests on defaults");
  REQUIRE(doc.verdict.first_action);
  CHECK(doc.verdict.first_action->command == "ssdprobe --budget 120 /dev/sdz");
  CHECK(has(block(doc.verdict), "first: ssdprobe --budget 120 /dev/sdz"));
  CHECK(has(block(doc.verdict), "not determined: read page; not measured: write unit and erase block (the rerun above may tell)"));
  check_short(doc.verdict);
  CHECK(to_json(doc)["verdict"]["units"][0]["state"] == "not_determined");

  ResultDocument flat = timed_doc();
  flat.read_page = {};
  flat.read_page.state = UnitState::absent;
  flat.read_page.searched_up_to_bytes = 128 * 1024;
  flat.verdict = build_verdict(flat, RunFacts{true, false, 60.0, false, {}});
  CHECK(flat.verdict.units[0].answer == UnitAnswer::ruled_out);
  CHECK(has(block(flat.verdict), "units: no read page up to 128 KiB"));
  CHECK(flat.verdict.units[0].to_determine.empty());
  CHECK(to_json(flat)["verdict"]["units"][0]["state"] == "ruled_out");
}

TEST_CASE("a stopped run says so first") {
  ResultDocument doc = timed_doc();
  doc.phases.push_back({"write_grid", PhaseState::interrupted, "interrupted by signal 2", 0.5, std::nullopt, std::nullopt, std::nullopt});
  doc.phases.push_back({"erase_stream", PhaseState::not_run, "the run stopped", 0.0, std::nullopt, std::nullopt, std::nullopt});
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  CHECK(doc.verdict.summary == "INCONCLUSIVE: run stopped in the write_grid phase (interrupted by signal 2)");
  // Nothing said about the defaults: the audit and the later phases never ran.
  CHECK_FALSE(has(block(doc.verdict), "contradicts"));
  CHECK_FALSE(has(block(doc.verdict), "advice:"));
  check_short(doc.verdict);
}

TEST_CASE("a rerun keeps the run's own options and is suggested once") {
  ResultDocument doc = timed_doc();
  doc.phases[0].state = PhaseState::budget;
  doc.read_page = {};
  doc.read_page.state = UnitState::undetermined;
  RunFacts facts = kReadOnly;
  facts.shaping_args = {{"--region", "2G:512M"}, {"--budget", "30"}, {"--qd", "4"}};
  facts.budget_s = 30;
  doc.verdict = build_verdict(doc, facts);
  REQUIRE(doc.verdict.first_action);
  CHECK(doc.verdict.first_action->command == "ssdprobe --region 2G:512M --budget 60 --qd 4 /dev/sdz");

  // Already given more than the default budget: no doubling for ever.
  facts.shaping_args = {{"--budget", "120"}};
  facts.budget_s = 120;
  doc.verdict = build_verdict(doc, facts);
  CHECK(doc.read_page.to_determine == "not settled within --budget 120, more than the default already");
  CHECK(doc.verdict.units[0].rerun.empty());
  CHECK_FALSE(has(block(doc.verdict), "--budget 240"));
  CHECK(has(block(doc.verdict), "not determined: read page"));
}

TEST_CASE("a target that looks like an option or holds shell words stays one word of the rerun") {
  ResultDocument doc = timed_doc();
  doc.path = "my disk;rm -rf x.img";
  doc.phases[0].state = PhaseState::budget;
  doc.read_page = {};
  doc.read_page.state = UnitState::undetermined;
  doc.verdict = build_verdict(doc, kReadOnly);
  REQUIRE(doc.verdict.first_action);
  CHECK(doc.verdict.first_action->command == "ssdprobe --budget 120 'my disk;rm -rf x.img'");
}

TEST_CASE("the SLC cache is never the first thing to do, and a fill with no drop is a lower bound, not a hedge") {
  ResultDocument doc = timed_doc();
  doc.phases.push_back({"write_grid", PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.phases.push_back({"slc_cache", PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.write_unit = {49152, UnitState::found, 0.99, "e", {}, "", {}, {}, {}, {}, {}, 0.0, {}};
  doc.write_unit.regime = "unknown";
  doc.slc_cache.state = UnitState::absent;
  doc.slc_cache.searched_up_to_bytes = 8ull << 30;
  doc.slc_cache_detail = SlcCacheDetail{};
  doc.slc_cache_detail->written_bytes = 8ull << 30;
  doc.slc_cache_detail->cap_bytes = 16ull << 30;
  doc.erase_block.state = UnitState::found;
  doc.erase_block.bytes = 24u << 20;
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  CHECK(doc.verdict.units[1].text == "write unit 48 KiB");
  CHECK(doc.slc_cache.to_determine.empty());
  CHECK(has(block(doc.verdict), "no SLC cache up to 8 GiB"));
  CHECK_FALSE(has(block(doc.verdict), "--cache-bytes"));
  CHECK(doc.verdict.status == VerdictStatus::ok);

  // A fill cut by the budget: still not the first thing to do.
  doc.phases.back().state = PhaseState::budget;
  doc.slc_cache.state = UnitState::undetermined;
  doc.slc_cache.searched_up_to_bytes.reset();
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  CHECK_FALSE(doc.verdict.first_action.has_value());
  CHECK(doc.verdict.status == VerdictStatus::ok);
  check_short(doc.verdict);

  // A fill that ran to its end and saw a slowdown it could not confirm: the
  // longer fill's rerun raises --max-write-bytes by the fill's growth, or the
  // cap would leave the probe out.
  doc.phases.back().state = PhaseState::done;
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  CHECK(doc.slc_cache.to_determine.find("--cache-bytes 32G --max-write-bytes 36G") != std::string::npos);
  RunFacts raised{true, true, 60.0, false, {{"--max-write-bytes", "100G"}}, 100ull << 30};
  doc.verdict = build_verdict(doc, raised);
  CHECK(doc.slc_cache.to_determine.find("--cache-bytes 32G --max-write-bytes 116G") != std::string::npos);
  CHECK(doc.verdict.units.back().rerun.find("--max-write-bytes 116G") != std::string::npos);
  CHECK(doc.verdict.units.back().rerun.find("100G") == std::string::npos);
}

// Issue 38: a full drive's garbage collection stalled a quarter of the write
// grid's writes. More budget only meets more stalls: what would tell is a
// rerun after idling or over other space, and the caution gives the counts.
TEST_CASE("a write unit left open among heavy stalls asks for idle time, not more budget") {
  ResultDocument doc = timed_doc();
  doc.phases.push_back({"write_grid", PhaseState::budget, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.write_unit = {};
  doc.write_unit.state = UnitState::undetermined;
  doc.write_probe = WriteProbeSummary{};
  doc.write_probe->grid_stalls = WriteStalls{2400, 633, 156.0, 2300.0, 1900.0};
  doc.erase_block.state = UnitState::found;
  doc.erase_block.bytes = 24u << 20;
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  const std::string stalls = "the write grid's writes stalled as on a full drive's garbage collection: 633 of 2400 "
                             "slower than 4x their size's median and at least 1.9 ms (median write 156 us, stalled "
                             "2.3 ms)";
  CHECK(doc.write_unit.to_determine == "rerun after the drive has idled (its garbage collection catches up), or with "
                                       "--write --region over space it has not written lately: " + stalls +
                                       ", which a larger --budget only meets more often");
  REQUIRE(doc.verdict.units.size() >= 2);
  CHECK(doc.verdict.units[1].to_determine == doc.write_unit.to_determine);
  REQUIRE(doc.verdict.first_action);
  CHECK(doc.verdict.first_action->command == "ssdprobe --write /dev/sdz");
  CHECK_FALSE(has(block(doc.verdict), "--budget 120"));
  CHECK(doc.verdict.cautions == std::vector<std::string>{stalls});
  INFO(block(doc.verdict));
  check_short(doc.verdict);

  // Under 5 % of the writes: the ordinary tail, no caution, the budget rerun.
  doc.write_probe->grid_stalls = WriteStalls{2400, 100, 156.0, 2300.0, 1900.0};
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  CHECK(doc.write_unit.to_determine == "rerun with --write --budget 120");
  CHECK(doc.verdict.cautions.empty());
}

// CI of stop 42: sim:full-gc-48k left the erase block and the SLC cache open
// among heavy stalls with both units found, and the line that said so grew
// past 100 characters when the caution was pointed to.
TEST_CASE("two open answers no advice rests on, with a caution, still fit a short line") {
  ResultDocument doc = timed_doc();
  doc.phases.push_back({"write_grid", PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.phases.push_back({"slc_cache", PhaseState::budget, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.write_unit = {49152, UnitState::found, 0.99, "e", {}, "", {}, {}, {}, {}, {}, 0.0, {}};
  doc.erase_block.state = UnitState::undetermined;
  doc.slc_cache.state = UnitState::undetermined;
  doc.write_probe = WriteProbeSummary{};
  doc.write_probe->grid_stalls = WriteStalls{2400, 633, 156.0, 2300.0, 1900.0};
  doc.verdict = build_verdict(doc, RunFacts{true, true, 60.0, false, {}});
  INFO(block(doc.verdict));
  REQUIRE_FALSE(doc.verdict.cautions.empty());
  check_short(doc.verdict);
  CHECK(has(block(doc.verdict), "not determined: erase block and SLC cache"));
  CHECK(has(block(doc.verdict), "caution"));
}

// Issue 39: the open-units probe's answer is one of the units the verdict
// lists, in streams, where the run probed it; a count, never bytes.
TEST_CASE("open units are listed with the units, as streams, and in the JSON as a count") {
  ResultDocument doc = timed_doc();
  doc.phases.push_back({"write_grid", PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.phases.push_back({"open_units", PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt});
  doc.write_unit = {49152, UnitState::found, 0.99, "e", {}, "", {}, {}, {}, {}, {}, 0.0, {}};
  doc.erase_block.state = UnitState::found;
  doc.erase_block.bytes = 4u << 20;
  const RunFacts write{true, true, 60.0, false, {}};

  doc.verdict = build_verdict(doc, write);
  CHECK_FALSE(has(block(doc.verdict), "open units"));  // not probed: not listed

  doc.open_units.verdict.state = UnitState::found;
  doc.open_units.verdict.streams = 4;
  doc.open_units.verdict.at_most = 4;
  doc.open_units.verdict.confidence = 0.99;
  doc.verdict = build_verdict(doc, write);
  CHECK(has(block(doc.verdict), "units: read page 16 KiB, write unit 48 KiB, erase block 4 MiB, open units 4 streams"));
  CHECK(doc.verdict.status == VerdictStatus::ok);
  check_short(doc.verdict);
  const auto units = verdict_json(doc.verdict).at("units");
  CHECK(units.back().at("unit") == "open_units");
  CHECK(units.back().at("count") == 4);
  CHECK(units.back().at("bytes").is_null());
  CHECK(units.front().at("count").is_null());

  // A firmware that states a different limit: the unit line below says so.
  doc.open_units.firmware_streams = 8;
  doc.open_units.firmware_streams_field = "fdp.reclaim_unit_handles";
  doc.verdict = build_verdict(doc, write);
  CHECK(has(doc.verdict.units.back().text, "(the firmware states 8: fdp.reclaim_unit_handles)"));

  doc.open_units.verdict = {};
  doc.open_units.verdict.state = UnitState::absent;
  doc.open_units.verdict.searched_up_to = 16;
  doc.verdict = build_verdict(doc, write);
  CHECK(has(block(doc.verdict), "no open-unit limit up to 16 streams"));
  CHECK(verdict_json(doc.verdict).at("units").back().at("state") == "ruled_out");

  // Not determined: named among what is open, and no advice rests on it.
  doc.open_units.verdict = {};
  doc.open_units.verdict.state = UnitState::undetermined;
  doc.open_units.to_determine = "the erase block was not found";
  doc.verdict = build_verdict(doc, write);
  CHECK(has(block(doc.verdict), "not determined: open units (the advice does not rest on it"));
  CHECK(doc.verdict.status == VerdictStatus::ok);
}
