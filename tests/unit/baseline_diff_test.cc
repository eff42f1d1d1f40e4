// compare --baseline on documents built by hand: each change named in the
// run it appeared in, a unit measured in one run only not compared, a
// latency change sized against both runs' spread, other drives refused.
#include "compare/baseline_diff.h"

#include <catch2/catch.hpp>

#include <cmath>

#include "core/error.h"
#include "report/output_kinds.h"

using namespace ssdprobe;

namespace {

SavedUnit found(uint64_t bytes) { return {bytes, "found", 0.99, std::nullopt, "", std::nullopt, 0.0}; }

// A read grid with one size, 4 KiB, at offset 0: median, p10, p90, samples.
SavedGrid read_grid(double median_us, double spread_us, uint32_t samples) {
  SavedGrid g;
  g.name = "read";
  g.op = "read";
  g.sizes = {4096};
  g.offsets = {0};
  g.median_us = {{median_us}};
  g.p10_us = {{median_us - spread_us / 2}};
  g.p90_us = {{median_us + spread_us / 2}};
  g.samples = {{samples}};
  return g;
}

SavedResult run(const char* file, const char* started, const char* firmware) {
  SavedResult r;
  r.file = file;
  r.started_at = started;
  r.model = "M";
  r.serial = "S";
  r.firmware = firmware;
  r.read_page = found(16384);
  r.write_unit.state = "not_measured";
  r.grids = {read_grid(100.0, 10.0, 50)};
  r.findings_by_severity = {{"error", 0}, {"warning", 1}};
  r.percentage_used = 3;
  return r;
}

const BaselineItem& item(const BaselineStep& step, const std::string& what) {
  for (const BaselineItem& i : step.items) {
    if (i.what == what) return i;
  }
  FAIL("no item " << what);
  throw;
}

}  // namespace

TEST_CASE("each change is named in the run it appeared in, in the order the runs ran") {
  SavedResult first = run("a.json", "2026-01-01T00:00:00Z", "1.0");
  SavedResult second = run("b.json", "2026-02-01T00:00:00Z", "1.0");
  SavedResult third = run("c.json", "2026-03-01T00:00:00Z", "2.0");
  third.read_page = found(32768);
  third.write_unit = found(49152);
  third.grids = {read_grid(150.0, 15.0, 50)};
  third.findings_by_severity = {{"error", 1}, {"warning", 1}};
  third.percentage_used = 4;
  const BaselineComparison c = compare_baseline({third, first, second});
  REQUIRE(c.steps.size() == 2);
  CHECK(c.steps[0].old_file == "a.json");
  CHECK(c.steps[1].new_file == "c.json");
  for (const BaselineItem& i : c.steps[0].items) CHECK_FALSE(i.changed);
  const BaselineStep& update = c.steps[1];
  CHECK(item(update, "firmware").changed);
  CHECK(item(update, "read page").changed);
  CHECK(item(update, "read page").new_text == "32 KiB (found, confidence 0.990)");
  CHECK_FALSE(item(update, "write unit").changed);
  CHECK(item(update, "write unit").not_compared == "not measured in the older run");
  CHECK(item(update, "audit findings").changed);
  CHECK(item(update, "wear (NVMe SMART log)").changed);
  const BaselineItem& latency = item(update, "4 KiB read at offset 0 (median)");
  CHECK(latency.changed);
  CHECK(*latency.ratio == Approx(1.5));
  // sigma = spread / about 2.5 (50 samples), the median's error 1.2533 sigma / sqrt(50), both runs'.
  const double se = std::hypot(1.2533 * 10.0 / 2.5 / std::sqrt(50.0), 1.2533 * 15.0 / 2.5 / std::sqrt(50.0));
  CHECK(*latency.z == Approx(50.0 / se).epsilon(0.05));
  const std::string text = render_baseline_text(c);
  CHECK(text.find("changed: firmware: 1.0 -> 2.0") != std::string::npos);
  CHECK(text.find("5 changes between the runs.") != std::string::npos);
}

TEST_CASE("a latency shift inside both runs' spread, or too small to matter, is no change") {
  SavedResult older = run("a.json", "2026-01-01T00:00:00Z", "1.0");
  SavedResult newer = run("b.json", "2026-02-01T00:00:00Z", "1.0");
  newer.grids = {read_grid(104.0, 40.0, 5)};  // 4 % with a wide spread and few samples
  CHECK_FALSE(item(compare_runs(older, newer), "4 KiB read at offset 0 (median)").changed);
  // 20 % with the spread of three samples that span 80 us: within the
  // runs' error (the p90 - p10 of 3 samples is about 1.39 sigma, not 2.56).
  older.grids = {read_grid(100.0, 80.0, 3)};
  newer.grids = {read_grid(120.0, 80.0, 3)};
  const BaselineStep wide = compare_runs(older, newer);
  CHECK(*item(wide, "4 KiB read at offset 0 (median)").ratio == Approx(1.2));
  CHECK(*item(wide, "4 KiB read at offset 0 (median)").z < 1.0);
  CHECK_FALSE(item(wide, "4 KiB read at offset 0 (median)").changed);
  older.grids = {read_grid(100.0, 1.0, 1000)};
  newer.grids = {read_grid(102.0, 1.0, 1000)};  // far out in standard errors, but 2 %
  const BaselineStep step = compare_runs(older, newer);
  const BaselineItem& small = item(step, "4 KiB read at offset 0 (median)");
  CHECK(*small.z > 50.0);
  CHECK_FALSE(small.changed);
}

TEST_CASE("runs of other drives, or a single run, are refused naming them") {
  SavedResult a = run("a.json", "2026-01-01T00:00:00Z", "1.0");
  SavedResult b = run("b.json", "2026-02-01T00:00:00Z", "1.0");
  b.serial = "OTHER";
  CHECK_THROWS_WITH(compare_baseline({a, b}), Catch::Contains("b.json is serial 'OTHER'"));
  CHECK_THROWS_AS(compare_baseline({a}), Error);
  // A first run without a serial does not let two other serials through.
  SavedResult c = run("c.json", "2026-03-01T00:00:00Z", "1.0");
  a.serial = "";
  c.serial = "THIRD";
  CHECK_THROWS_WITH(compare_baseline({a, b, c}), Catch::Contains("c.json is serial 'THIRD'"));
}

TEST_CASE("read grids at different queue depths are not compared") {
  SavedResult a = run("a.json", "2026-01-01T00:00:00Z", "1.0");
  SavedResult b = run("b.json", "2026-02-01T00:00:00Z", "1.0");
  b.grids[0].queue_depth = 4;
  b.grids[0].median_us = {{300.0}};
  const BaselineStep step = compare_runs(a, b);
  CHECK(item(step, "aligned read latencies").not_compared == "the read grids ran at different queue depths");
  for (const BaselineItem& i : step.items) CHECK_FALSE(i.changed);
}

TEST_CASE("the JSON is a comparison document the output door recognises") {
  const BaselineComparison c = compare_baseline({run("a.json", "2026-01-01T00:00:00Z", "1.0"),
                                                 run("b.json", "2026-02-01T00:00:00Z", "1.0")});
  const std::string json = render_baseline_json(c);
  CHECK(json.rfind("{\n  \"schema\": \"ssdprobe-baseline/1\"", 0) == 0);
  CHECK(describe_output(json) == "an ssdprobe comparison document");
}
