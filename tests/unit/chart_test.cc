// The numbers behind `plot --picture`: what the reader takes from a document
// (ChartData::read only, wrong types refused naming the field), and what each
// chart draws from it: knee and plateau lines, stalls by the stated rule and
// the erase-block period, undetermined costs as labels (never a ratio of 1),
// the cache size, and the refusals' words.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "plot/charts.h"
#include "report/saved_result.h"

using namespace ssdprobe;

namespace {

SavedResult parse(const std::string& body, ChartData charts = ChartData::read) {
  return parse_saved_result(R"({"schema": "ssdprobe/1", "run": {}, "target": {"model": "Drive"}, )" + body + "}",
                            "doc.json", GridDetail::none, charts);
}

const std::string kSweep = R"("parallelism_probe": {"read_bytes": 4096, "queue_depths": [
    {"queue_depth": 1, "iops": 1000, "p50_us": 10, "p99_us": 20},
    {"queue_depth": 2, "iops": 1900, "p50_us": 11, "p99_us": 25},
    {"queue_depth": 4, "iops": 2000, "p50_us": 20, "p99_us": 50}]},
  "detected": {"parallelism": {"queue_depth_knee": {"value": 2, "state": "found", "confidence": 0.99, "interval": [2, 2]},
                               "plateau_iops": {"value": 2000, "state": "found", "confidence": 0.98, "interval": [1950, 2050]}}})";

// Ten writes of 1 MiB at 100 us, one stall of 500 us at entry 4; the window
// starts at 2 MiB, erase block 4 MiB: boundaries at window offsets 2 and 6 MiB.
const std::string kStream = R"("write_probe": {"region": {"offset": 2097152, "length": 10485760},
    "stream": {"chunk_bytes": 1048576, "streamed_bytes": 10485760,
               "latency_us": [100, 101, 99, 100, 500, 100, 102, 98, 100, 100]}},
  "detected": {"erase_block": {"bytes": 4194304, "state": "found", "confidence": 0.95}})";

const ChartLine* line_named(const ChartPanel& panel, const std::string& prefix) {
  for (const ChartLine& l : panel.lines) {
    if (l.label.rfind(prefix, 0) == 0) return &l;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("chart data is read only when asked, and wrong types name the field") {
  CHECK(parse(kSweep, ChartData::skip).charts.read_sweep.depths.empty());
  const SavedResult d = parse(kSweep);
  REQUIRE(d.charts.read_sweep.depths.size() == 3);
  CHECK(d.charts.read_sweep.depths[2].p99_us == 50);
  CHECK(d.charts.read_sweep.knee.value == 2);
  CHECK(d.charts.read_sweep.plateau.interval == std::pair{1950.0, 2050.0});
  CHECK_THROWS_WITH(parse(R"("write_probe": {"stream": {"latency_us": ["slow"]}})"),
                    Catch::Contains("doc.json") && Catch::Contains("write_probe.stream.latency_us"));
  CHECK_THROWS_WITH(parse(R"("audit": {"available": true, "checks": [{"costs": [{"ratio": "x"}]}]})"),
                    Catch::Contains("audit.checks[].costs[].ratio"));
}

TEST_CASE("queue-depth: IOPS and p99 per depth, the knee and plateau drawn where found") {
  const Chart chart = build_chart({parse(kSweep)}, ChartKind::queue_depth);
  REQUIRE(chart.panels.size() == 1);  // no writes in the document: reads only
  const ChartPanel& p = chart.panels[0];
  CHECK(p.x_log2);
  CHECK(p.series[0].y == std::vector<double>{1000, 1900, 2000});
  CHECK(p.series[1].right_axis);
  CHECK(p.series[1].y == std::vector<double>{20, 25, 50});
  REQUIRE(line_named(p, "knee") != nullptr);
  CHECK(line_named(p, "knee")->at == 2);
  CHECK(line_named(p, "plateau")->at == 2000);
  CHECK_THAT(p.title, Catch::Contains("knee at QD 2") && Catch::Contains("plateau 2000 IOPS"));
}

TEST_CASE("erase-block: stalls are writes over 3x the median, period lines at the block's multiples") {
  const Chart chart = build_chart({parse(kStream)}, ChartKind::erase_block);
  const ChartPanel& p = chart.panels[0];
  CHECK(p.series[0].x.size() == 9);
  CHECK(p.series[1].x == std::vector<double>{4.0});  // entry 4: 4 MiB into the window
  CHECK(p.series[1].y == std::vector<double>{500});
  CHECK(line_named(p, "stall threshold")->at == 300);  // 3 x the median 100
  std::vector<double> period;
  for (const ChartLine& l : p.lines) {
    if (l.vertical) period.push_back(l.at);
  }
  CHECK(period == std::vector<double>{2.0, 6.0, 10.0});  // disk bytes 4, 8, 12 MiB
  CHECK_THAT(chart.title, Catch::Contains("erase block 4 MiB (confidence 0.95)"));
  CHECK_THAT(chart.caption, Catch::Contains("3x the pass's median"));
}

TEST_CASE("erase-block: a block ruled out is said with the reach, and no period is drawn") {
  const SavedResult d = parse(R"("write_probe": {"region": {"offset": 0}, "stream": {"chunk_bytes": 1048576,
      "latency_us": [100, 100, 100]}}, "detected": {"erase_block": {"bytes": null, "state": "absent",
      "searched_up_to_bytes": 44728320}})");
  const Chart chart = build_chart({d}, ChartKind::erase_block);
  CHECK_THAT(chart.title, Catch::Contains("no erase block up to"));
  for (const ChartLine& l : chart.panels[0].lines) CHECK_FALSE(l.vertical);
}

TEST_CASE("misalignment: ratios with intervals; an undetermined cost is a label, not a 1") {
  const SavedResult d = parse(R"("audit": {"available": true, "checks": [
      {"field": "partition[1].start", "layer": "partition 1", "disk_offset": 32256, "value_bytes": 32256, "ok": false,
       "costs": [{"op": "read", "request_bytes": 4096, "determined": true, "ratio": 1.5, "ratio_low": 1.4,
                  "ratio_high": 1.6, "significant": true},
                 {"op": "write", "request_bytes": 16384, "determined": false, "evidence": "no column"}]},
      {"field": "partition[2].start", "ok": true}]})");
  REQUIRE(d.charts.costed_starts.size() == 1);  // the check without costs is not a start to draw
  const Chart chart = build_chart({d}, ChartKind::misalignment);
  const ChartPanel& p = chart.panels[0];
  REQUIRE(p.series.size() == 1);
  CHECK(p.series[0].x == std::vector<double>{1});
  CHECK(p.series[0].y_low == std::vector<double>{1.4});
  CHECK(p.series[0].y_high == std::vector<double>{1.6});
  REQUIRE(p.labels.size() == 1);
  CHECK(p.labels[0].x == 2);
  CHECK(p.labels[0].text == "not determined");
  CHECK(p.x_ticks[1].label == "write 16 KiB");
  CHECK_THAT(p.title, Catch::Contains("1.50x slower"));
}

TEST_CASE("misalignment: every panel has one y scale, from 0 past the highest interval of any start") {
  const SavedResult d = parse(R"("audit": {"available": true, "checks": [
      {"field": "partition[1].start", "layer": "partition 1", "disk_offset": 32256, "value_bytes": 32256, "ok": false,
       "costs": [{"op": "read", "request_bytes": 4096, "determined": true, "ratio": 2.5, "ratio_low": 2.2,
                  "ratio_high": 2.9, "significant": true}]},
      {"field": "partition[2].start", "layer": "partition 2", "disk_offset": 1048576, "value_bytes": 1048576,
       "ok": true, "costs": [{"op": "read", "request_bytes": 4096, "determined": true, "ratio": 1.0,
                              "ratio_low": 0.98, "ratio_high": 1.02, "significant": false}]}]})");
  const Chart chart = build_chart({d}, ChartKind::misalignment);
  REQUIRE(chart.panels.size() == 2);
  REQUIRE(chart.panels[0].y_max);
  CHECK(chart.panels[0].y_max == chart.panels[1].y_max);  // the aligned start's 1.0 is not drawn as tall as 2.9
  CHECK(*chart.panels[0].y_max >= 2.9);
  CHECK(*chart.panels[0].y_max <= 3.5);
}

TEST_CASE("slc-cache: a cache ruled out marks the reach the verdict states, short of the fill's end") {
  const SavedResult d = parse(R"("detected": {"slc_cache": {"state": "absent", "bytes": null,
      "searched_up_to_bytes": 223346688, "in_cache_bytes_per_s": 1048576000, "io_bytes": 1048576,
      "curve": [{"written_bytes": 134217728, "bytes_per_s": 1048576000},
                {"written_bytes": 268435456, "bytes_per_s": 1048576000}]}})");
  const Chart chart = build_chart({d}, ChartKind::slc_cache);
  const ChartPanel& p = chart.panels[0];
  CHECK_THAT(chart.title, Catch::EndsWith("no SLC cache up to 213 MiB"));
  const ChartLine* reach = line_named(p, "213 MiB");
  REQUIRE(reach != nullptr);  // the fill drawn to 256 MiB claims no more than the 213 MiB said
  CHECK(reach->vertical);
  CHECK(reach->at == 213);
  CHECK(reach->in_key);
  CHECK(p.x_range->second == 256);
  // No drop was found, so the caption explains none.
  CHECK_THAT(chart.caption, !Catch::Contains("the drop is"));
  CHECK_THAT(chart.caption, Catch::Contains("no drop is marked"));
}

TEST_CASE("slc-cache: the curve in MiB and MiB/s, the cache size marked") {
  const SavedResult d = parse(R"("detected": {"slc_cache": {"state": "found", "bytes": 134217728, "confidence": 1,
      "in_cache_bytes_per_s": 1048576000, "native_bytes_per_s": 209715200, "io_bytes": 1048576,
      "curve": [{"written_bytes": 67108864, "bytes_per_s": 1048576000},
                {"written_bytes": 201326592, "bytes_per_s": 209715200}]}})");
  const Chart chart = build_chart({d}, ChartKind::slc_cache);
  const ChartPanel& p = chart.panels[0];
  CHECK(p.series[0].x == std::vector<double>{64, 192});
  CHECK(p.series[0].y == std::vector<double>{1000, 200});
  CHECK(line_named(p, "cache 128 MiB")->at == 128);
  CHECK_THAT(chart.title, Catch::Contains("SLC cache 128 MiB"));
  CHECK_THAT(chart.caption, Catch::Contains("the drop is where the write speed fell"));
}

TEST_CASE("a document without the data is refused naming it and what is missing") {
  const SavedResult read_only = parse(kSweep);
  CHECK(chart_unavailable_reason(read_only, ChartKind::queue_depth) == std::nullopt);
  CHECK(chart_unavailable_reason(read_only, ChartKind::erase_block) ==
        "doc.json: has no write_probe.stream (run with --write)");
  CHECK_THAT(*chart_unavailable_reason(read_only, ChartKind::slc_cache), Catch::Contains("run with --write"));
  CHECK_THAT(*chart_unavailable_reason(read_only, ChartKind::misalignment), Catch::Contains("has no audit"));
  const SavedResult info = parse_saved_result(R"({"schema": "ssdprobe/1", "run": null})", "info.json",
                                              GridDetail::none, ChartData::read);
  CHECK_THAT(*chart_unavailable_reason(info, ChartKind::queue_depth), Catch::StartsWith("info.json: is an `info`"));
  try {
    build_chart({read_only}, ChartKind::erase_block);
    FAIL("no refusal");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::target);
  }
  CHECK(chart_kind_named("slc-cache") == ChartKind::slc_cache);
  CHECK_FALSE(chart_kind_named("heatmap"));
}
