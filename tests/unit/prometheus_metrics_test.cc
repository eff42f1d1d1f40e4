// The Prometheus metrics of result documents (report/prometheus_metrics.h):
// the values a real run measured come out as the series docs/monitoring.md
// lists (the SLC cache's too: found, not measured, not found), every family
// once however many drives, label values escaped as the exposition format
// wants, a failed target as ssdprobe_up 0, and the untimed commands' wall
// time as their duration (the daily audit's, once always 0).

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/output_kinds.h"
#include "report/prometheus_metrics.h"
#include "report/saved_result.h"
#include "run_cli.h"
#include "temp_tree.h"

using ssdprobe::ChartData;
using ssdprobe::GridDetail;
using ssdprobe::render_prometheus;
using ssdprobe::SavedResult;
namespace fs = std::filesystem;

namespace {

SavedResult monitoring_read(const std::string& text) {
  return ssdprobe::parse_saved_result(text, "test document", GridDetail::none, ChartData::read);
}

std::string file_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// The labels of a sim's samples for `command`.
std::string sim_drive(const std::string& name, const std::string& command) {
  return "device=\"sim:" + name + "\",model=\"ssdprobe simulated drive " + name + "\",serial=\"SIM-" + name +
         "\",firmware=\"sim\",command=\"" + command + "\"";
}

// The value of the one sample of `family` in `metrics` (the files these
// tests make hold one drive); NaN when there is none.
double sample_value(const std::string& metrics, const std::string& family) {
  const size_t at = metrics.find("\n" + family + "{");
  if (at == std::string::npos) return std::nan("");
  const size_t value = metrics.find("} ", at) + 2;
  return std::stod(metrics.substr(value, metrics.find('\n', value) - value));
}

// A run's document (ARGS then --json), parsed once as JSON and once as the
// metrics read it.
struct SimRun {
  nlohmann::json doc;
  std::string metrics;
};
SimRun sim_run(const test_support::TempTree& dir, std::vector<std::string> args) {
  const fs::path out = dir.root() / "r.json";
  args.insert(args.end(), {"--json", out.string()});
  REQUIRE(test_support::run_ssdprobe(args) == 0);
  const std::string json_text = file_text(out);
  return {nlohmann::json::parse(json_text), render_prometheus({monitoring_read(json_text)}, {})};
}

}  // namespace

TEST_CASE("a sim run's metrics carry what it measured and what the kernel reported") {
  const test_support::TempTree dir("ssdprobe-prom");
  const fs::path out = dir.root() / "r.json";
  REQUIRE(test_support::run_ssdprobe({"-q", "--budget", "5", "--json", out.string(), "sim:nvme-tlc-16k"}) == 0);
  const std::string json_text = file_text(out);
  const auto doc = nlohmann::json::parse(json_text);
  const std::string m = render_prometheus({monitoring_read(json_text)}, {});
  INFO(m);

  const std::string drive = "device=\"sim:nvme-tlc-16k\",model=\"ssdprobe simulated drive nvme-tlc-16k\","
                            "serial=\"SIM-nvme-tlc-16k\",firmware=\"sim\",command=\"run\"";
  CHECK(m.find("ssdprobe_up{" + drive + "} 1\n") != std::string::npos);
  CHECK(m.find("ssdprobe_unit_bytes{" + drive + ",unit=\"read_page\"} " +
               std::to_string(doc["detected"]["read_page"]["bytes"].get<uint64_t>()) + "\n") != std::string::npos);
  CHECK(m.find("ssdprobe_unit_state{" + drive + ",unit=\"read_page\",state=\"found\"} 1\n") != std::string::npos);
  CHECK(m.find("ssdprobe_unit_state{" + drive + ",unit=\"write_unit\",state=\"not_measured\"} 1\n") !=
        std::string::npos);
  CHECK(m.find("ssdprobe_unit_state{" + drive + ",unit=\"write_unit\",state=\"found\"} 0\n") != std::string::npos);
  // Only found units have a size.
  CHECK(m.find("ssdprobe_unit_bytes{" + drive + ",unit=\"write_unit\"}") == std::string::npos);
  CHECK(m.find("ssdprobe_sysfs_bytes{" + drive + ",attribute=\"minimum_io_size\"} " +
               std::to_string(doc["reported"]["minimum_io_size"].get<uint64_t>()) + "\n") != std::string::npos);
  // The kernel under-reports on this sim: its mismatches are counted.
  REQUIRE(doc["mismatches"].size() > 0);
  size_t warnings = 0;
  for (const auto& mm : doc["mismatches"]) warnings += mm["severity"] == "warning";
  CHECK(m.find("ssdprobe_mismatches{" + drive + ",severity=\"warning\"} " + std::to_string(warnings) + "\n") !=
        std::string::npos);
  CHECK(m.find("ssdprobe_audit_findings{" + drive + ",severity=\"error\"} 0\n") != std::string::npos);
  CHECK(m.find("ssdprobe_last_run_duration_seconds{" + drive + "} ") != std::string::npos);
  // Every family is declared once, as a gauge.
  CHECK(count(m, "# TYPE ssdprobe_unit_state gauge\n") == 1);
  CHECK(count(m, "# TYPE ") == count(m, "# HELP "));
}

TEST_CASE("two drives share each family; a failed one is ssdprobe_up 0") {
  const test_support::TempTree dir("ssdprobe-prom");
  std::vector<SavedResult> docs;
  for (const char* sim : {"sim:nvme-tlc-16k", "sim:sata-mlc-8k"}) {
    const fs::path out = dir.root() / (std::string(sim).substr(4) + ".json");
    REQUIRE(test_support::run_ssdprobe({"-q", "info", sim, "--json", out.string()}) == 0);
    docs.push_back(monitoring_read(file_text(out)));
  }
  const std::string m = render_prometheus(docs, {{"/dev/sdz", "audit", "cannot open\nthe disk", 1700000000.5}});
  INFO(m);
  CHECK(count(m, "# TYPE ssdprobe_up gauge\n") == 1);
  CHECK(count(m, "ssdprobe_up{") == 3);
  CHECK(m.find("command=\"info\"} 1\n") != std::string::npos);
  CHECK(m.find("ssdprobe_up{device=\"/dev/sdz\",model=\"\",serial=\"\",firmware=\"\",command=\"audit\"} 0\n") !=
        std::string::npos);
  CHECK(m.find("ssdprobe_last_run_timestamp_seconds{device=\"/dev/sdz\",model=\"\",serial=\"\",firmware=\"\","
               "command=\"audit\"} 1700000000.5\n") != std::string::npos);
  // The reason is a comment on one line: its newline is escaped.
  CHECK(m.find("# ssdprobe failed: /dev/sdz: cannot open\\x0athe disk\n") != std::string::npos);
  // The samples of one family stand together (the format requires it).
  const size_t first = m.find("ssdprobe_up{"), last = m.rfind("ssdprobe_up{");
  CHECK(m.substr(first, last - first).find("# TYPE") == std::string::npos);
}

TEST_CASE("label values are escaped as the exposition format wants") {
  CHECK(ssdprobe::prometheus_label_value("plain") == "plain");
  CHECK(ssdprobe::prometheus_label_value("a\"b") == "a\\\"b");
  CHECK(ssdprobe::prometheus_label_value("a\\b") == "a\\\\b");
  CHECK(ssdprobe::prometheus_label_value("a\nb") == "a\\nb");
  // Not UTF-8: the byte becomes the text \xff, its backslash escaped.
  CHECK(ssdprobe::prometheus_label_value("a\xff") == "a\\\\xff");
}

TEST_CASE("RFC 3339 times read as Unix seconds") {
  CHECK(ssdprobe::unix_seconds("1970-01-01T00:00:00Z") == 0.0);
  CHECK(ssdprobe::unix_seconds("2026-11-27T07:25:10Z") == 1795764310.0);
  CHECK(ssdprobe::unix_seconds("2026-11-27T07:25:10.25Z") == 1795764310.25);
  CHECK_FALSE(ssdprobe::unix_seconds("2026-11-27 07:25:10"));
  CHECK_FALSE(ssdprobe::unix_seconds("2026-11-27T07:25:10+01:00"));
  CHECK_FALSE(ssdprobe::unix_seconds(""));
}

TEST_CASE("a measured SLC cache: its size and state, and the write unit inside it") {
  const test_support::TempTree dir("ssdprobe-prom");
  // A 128 MiB cache, refilled while idle: the cache probe finds it and the
  // write grid runs again inside it.
  const SimRun r = sim_run(dir, {"-q", "--write", "--yes", "sim:tlc-slc-128m"});
  const std::string m = r.metrics;
  INFO(m);
  const auto& cache = r.doc["detected"]["slc_cache"];
  REQUIRE(cache["state"] == "found");
  REQUIRE(cache["write_unit"]["state"] == "found");
  const std::string slc = sim_drive("tlc-slc-128m", "run") + ",unit=\"slc_cache\"";
  CHECK(has(m, "ssdprobe_unit_bytes{" + slc + "} " + std::to_string(cache["bytes"].get<uint64_t>()) + "\n"));
  CHECK(cache["bytes"].get<uint64_t>() == 128u << 20);  // what the sim has, so the series is the cache's size
  CHECK(has(m, "ssdprobe_unit_state{" + slc + ",state=\"found\"} 1\n"));
  for (const char* other : {"absent", "undetermined", "not_measured"}) {
    CHECK(has(m, "ssdprobe_unit_state{" + slc + ",state=\"" + other + "\"} 0\n"));
  }
  CHECK(has(m, "ssdprobe_unit_confidence{" + slc + "} "));
  const std::string in_cache = sim_drive("tlc-slc-128m", "run") + ",unit=\"write_unit_in_slc_cache\"";
  CHECK(has(m, "ssdprobe_unit_bytes{" + in_cache + "} " +
                   std::to_string(cache["write_unit"]["bytes"].get<uint64_t>()) + "\n"));
  CHECK(has(m, "ssdprobe_unit_state{" + in_cache + ",state=\"found\"} 1\n"));
  // The native write unit is its own series, not the one inside the cache.
  CHECK(has(m, "ssdprobe_unit_bytes{" + sim_drive("tlc-slc-128m", "run") + ",unit=\"write_unit\"} " +
                   std::to_string(r.doc["detected"]["write_unit"]["bytes"].get<uint64_t>()) + "\n"));
}

TEST_CASE("an SLC cache not measured, or not found, has a state and no size") {
  const test_support::TempTree dir("ssdprobe-prom");
  SECTION("a run without --write: not_measured, and no write unit inside the cache at all") {
    const SimRun r = sim_run(dir, {"-q", "--budget", "5", "sim:tlc-slc-128m"});
    INFO(r.metrics);
    REQUIRE(r.doc["detected"]["slc_cache"]["state"] == "not_measured");
    const std::string slc = sim_drive("tlc-slc-128m", "run") + ",unit=\"slc_cache\"";
    CHECK(has(r.metrics, "ssdprobe_unit_state{" + slc + ",state=\"not_measured\"} 1\n"));
    CHECK(has(r.metrics, "ssdprobe_unit_state{" + slc + ",state=\"found\"} 0\n"));
    CHECK_FALSE(has(r.metrics, "ssdprobe_unit_bytes{" + slc + "}"));
    CHECK_FALSE(has(r.metrics, "unit=\"write_unit_in_slc_cache\""));
  }
  SECTION("a cache searched for and not found: its state, no size, no write unit inside it") {
    // No SLC cache on this sim: the fill shows no drop before --budget ends it.
    const SimRun r = sim_run(dir, {"-q", "--write", "--yes", "--budget", "5", "sim:nvme-tlc-16k"});
    INFO(r.metrics);
    const std::string state = r.doc["detected"]["slc_cache"]["state"];
    REQUIRE(state != "found");
    REQUIRE(state != "not_measured");
    REQUIRE(r.doc["detected"]["slc_cache"]["write_unit"].is_null());
    const std::string slc = sim_drive("nvme-tlc-16k", "run") + ",unit=\"slc_cache\"";
    CHECK(has(r.metrics, "ssdprobe_unit_state{" + slc + ",state=\"" + state + "\"} 1\n"));
    CHECK_FALSE(has(r.metrics, "ssdprobe_unit_bytes{" + slc + "}"));
    CHECK_FALSE(has(r.metrics, "unit=\"write_unit_in_slc_cache\""));
  }
  SECTION("a document from before detected.slc_cache: no SLC series") {
    SimRun r = sim_run(dir, {"-q", "info", "sim:tlc-slc-128m"});
    r.doc["detected"].erase("slc_cache");
    const std::string m = render_prometheus({monitoring_read(r.doc.dump())}, {});
    INFO(m);
    CHECK(has(m, "unit=\"read_page\""));
    CHECK_FALSE(has(m, "slc_cache"));
  }
}

TEST_CASE("audit and info record their wall time, and the metrics export it as is") {
  const test_support::TempTree dir("ssdprobe-prom");
  // A file with no partition table: the audit reads sysfs and looks for a
  // layout, times no IO, and still takes a measurable time doing so.
  const fs::path image = dir.root() / "disk.img";
  std::ofstream{image}.close();
  fs::resize_file(image, 64u << 20);
  const std::vector<std::vector<std::string>> commands{
      {"audit", image.string(), "--fail-on", "never"},
      {"info", image.string()},
      {"info", "sim:nvme-tlc-16k"},
  };
  for (std::vector<std::string> args : commands) {
    INFO(args[0] << " " << args[1]);
    const fs::path json = dir.root() / "d.json", prom = dir.root() / "d.prom";
    args.insert(args.end(), {"-q", "--json", json.string(), "--prometheus", prom.string()});
    REQUIRE(test_support::run_ssdprobe(args) == 0);
    const double duration = nlohmann::json::parse(file_text(json))["duration_s"].get<double>();
    CHECK(duration > 0.0);
    CHECK(duration < 60.0);  // a generous bound: it takes milliseconds
    const std::string m = file_text(prom);
    INFO(m);
    CHECK(sample_value(m, "ssdprobe_last_run_duration_seconds") == duration);
  }
}

namespace {

// How often each series (name and labels: a sample line up to its value)
// appears among `metrics`' samples.
std::map<std::string, int> series_counts(const std::string& metrics) {
  std::map<std::string, int> counts;
  std::istringstream in(metrics);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ++counts[line.substr(0, line.rfind(' '))];
  }
  return counts;
}

}  // namespace

TEST_CASE("each series is written once, whatever the documents repeat") {
  const test_support::TempTree dir("ssdprobe-prom");
  SimRun r = sim_run(dir, {"-q", "--budget", "5", "--at", "32256", "sim:nvme-tlc-16k"});
  nlohmann::json& audit = r.doc["audit"];
  REQUIRE(audit["at"].size() == 1);
  nlohmann::json start = audit["at"][0];
  nlohmann::json* read_4k = nullptr;
  for (auto& cost : start["costs"]) {
    if (cost["op"] == "read" && cost["request_bytes"] == 4096 && cost["determined"] == true) read_4k = &cost;
  }
  REQUIRE(read_4k != nullptr);
  const double ratio = (*read_4k)["ratio"].get<double>();
  // The same start asked three times (`--at 32256,32256,31.5KiB` from an
  // ssdprobe that kept each), the last with another answer; and one layer's
  // start checked twice.
  audit["at"].push_back(start);
  (*read_4k)["ratio"] = ratio + 7.0;
  audit["at"].push_back(start);
  start["field"] = "start";
  start["layer"] = "partition 1 (/dev/sdz1)";
  audit["checks"] = nlohmann::json::array({start, start});
  const SavedResult saved = monitoring_read(r.doc.dump());
  // The document twice, and one failed target twice.
  const ssdprobe::FailedTarget failed{"/dev/sdy", "audit", "cannot open", 1700000000.0};
  const std::string m = render_prometheus({saved, saved}, {failed, failed});
  INFO(m);

  for (const auto& [series, n] : series_counts(m)) {
    INFO(series);
    CHECK(n == 1);
  }
  const std::string drive = sim_drive("nvme-tlc-16k", "run");
  const std::string at_cost = "ssdprobe_misalignment_cost_ratio{" + drive + ",layer=\"" +
                              audit["at"][0]["layer"].get<std::string>() +
                              "\",field=\"at\",offset_bytes=\"32256\",op=\"read\",request_bytes=\"4096\"}";
  const size_t line = m.find("\n" + at_cost + " ");
  REQUIRE(line != std::string::npos);
  const size_t value = line + 1 + at_cost.size() + 1;
  CHECK(std::stod(m.substr(value, m.find('\n', value) - value)) == Approx(ratio));  // the first is kept
  CHECK(has(m, "ssdprobe_misalignment_cost_ratio{" + drive + ",layer=\"partition 1 (/dev/sdz1)\",field=\"start\""));
  CHECK(count(m, "\nssdprobe_up{") == 2);  // the drive and the failed target
  // What was left out is said in comments.
  CHECK(has(m, "# ssdprobe: left out another document of the same drive and command: " + drive + "\n"));
  CHECK(has(m, "# ssdprobe: left out a repeated series (the first is kept): " + at_cost + " "));
  CHECK(has(m, "# ssdprobe: left out a repeated series (the first is kept): ssdprobe_up{device=\"/dev/sdy\""));
  // The output door knows such a file as ssdprobe's metrics: the next run replaces it.
  CHECK(ssdprobe::prometheus_kind().ours(m.substr(0, 4096)));
}
