// Reading saved result documents back (report/saved_result.h): what a real
// run wrote comes back with the same values, a newer minor version and
// unknown keys in any order are read, and every way a fleet's folder can
// hold a bad file is refused with the file's name and the reason.

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_cli.h"
#include "temp_tree.h"
#include "core/error.h"
#include "report/saved_result.h"

using nlohmann::json;
using ssdprobe::GridDetail;
using ssdprobe::read_saved_result;
namespace fs = std::filesystem;
using test_support::run_ssdprobe;
using test_support::TempTree;

namespace {

json load(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

void save(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// The message of the Error reading `file` throws ("" when it reads).
std::string refusal(const fs::path& file) {
  try {
    read_saved_result(file.string(), GridDetail::full);
  } catch (const ssdprobe::Error& e) {
    CHECK(e.category() == ssdprobe::ErrorCategory::usage);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a real --write run reads back with the values it wrote") {
  const TempTree dir("ssdprobe-saved");
  const fs::path out = dir.root() / "r.json";
  REQUIRE(run_ssdprobe({"-q", "--seed", "5", "--write", "--yes", "--json", out.string(), "sim:nvme-tlc-16k"}) == 0);
  const json d = load(out);
  const auto saved = read_saved_result(out.string(), GridDetail::full);

  CHECK(saved.file == out.string());
  CHECK(saved.schema_major == 1);
  CHECK(saved.schema_minor == 0);
  CHECK(saved.measured);
  CHECK(saved.write);
  CHECK(saved.path == "sim:nvme-tlc-16k");
  CHECK(saved.model == d["target"]["model"].get<std::string>());
  CHECK(saved.serial == d["target"]["serial"].get<std::string>());
  CHECK(saved.size_bytes == d["target"]["size_bytes"].get<uint64_t>());
  CHECK(saved.logical_block == d["reported"]["logical_block_size"].get<uint64_t>());
  CHECK(saved.read_page.state == "found");
  CHECK(saved.read_page.bytes == d["detected"]["read_page"]["bytes"].get<uint64_t>());
  CHECK(saved.read_page.confidence == Approx(d["detected"]["read_page"]["confidence"].get<double>()));
  CHECK(saved.write_unit.bytes == d["detected"]["write_unit"]["bytes"].get<uint64_t>());
  CHECK(saved.erase_block.bytes == d["detected"]["erase_block"]["bytes"].get<uint64_t>());
  CHECK(saved.mismatches.size() == d["mismatches"].size());
  CHECK(saved.partition_alignment == d["recommendations"]["partition_alignment_bytes"].get<uint64_t>());

  REQUIRE(saved.grids.size() == d["grids"].size());
  for (size_t g = 0; g < saved.grids.size(); ++g) {
    const auto& grid = saved.grids[g];
    const json& jg = d["grids"][g];
    INFO(grid.name);
    CHECK(grid.name == jg["name"].get<std::string>());
    CHECK(grid.sizes == jg["sizes"].get<std::vector<uint64_t>>());
    CHECK(grid.offsets == jg["offsets"].get<std::vector<uint64_t>>());
    REQUIRE(grid.median_us.size() == grid.sizes.size());
    REQUIRE(grid.samples.size() == grid.sizes.size());
    // Spot checks across the matrix: the same cell, the same number.
    for (size_t s = 0; s < grid.sizes.size(); ++s) {
      for (size_t o = 0; o < grid.offsets.size(); o += 7) {
        const json& cell = jg["median_us"][s][o];
        if (cell.is_null()) {
          CHECK(std::isnan(grid.median_us[s][o]));
        } else {
          CHECK(grid.median_us[s][o] == cell.get<double>());
        }
        CHECK(grid.samples[s][o] == jg["samples"][s][o].get<uint32_t>());
      }
    }
  }

  // Less detail, less read: no grids at all, or medians only.
  CHECK(read_saved_result(out.string(), GridDetail::none).grids.empty());
  const auto medians = read_saved_result(out.string(), GridDetail::medians);
  REQUIRE_FALSE(medians.grids.empty());
  CHECK(medians.grids[0].p90_us.empty());
  CHECK(medians.grids[0].median_us == saved.grids[0].median_us);
}

TEST_CASE("an info document reads as not measured") {
  const TempTree dir("ssdprobe-saved");
  const fs::path out = dir.root() / "i.json";
  REQUIRE(run_ssdprobe({"-q", "info", "sim:sata-mlc-8k", "--json", out.string()}) == 0);
  const auto saved = read_saved_result(out.string(), GridDetail::full);
  CHECK_FALSE(saved.measured);
  CHECK(saved.grids.empty());
  CHECK(saved.read_page.state == "not_measured");
  CHECK_FALSE(saved.read_page.bytes);
}

TEST_CASE("a newer minor version with unknown keys in another order is read") {
  const TempTree dir("ssdprobe-saved");
  const fs::path file = dir.root() / "minor.json";
  // schema last, keys the reader does not know at every level, an unknown
  // enumeration value: all tolerated by the versioning rules.
  save(file, R"({"future": {"x": [1, 2]},
    "detected": {"read_page": {"bytes": 8192, "state": "found", "confidence": 0.9, "new": true},
                 "write_unit": {"bytes": null, "state": "some_new_state", "confidence": 0}},
    "target": {"model": "M", "serial": "S", "firmware": "F", "size_bytes": 1000, "colour": "blue"},
    "grids": [{"name": "read", "op": "read", "queue_depth": 1, "sizes": [4096, 8192], "offsets": [0, 4096, 8192],
               "median_us": [[1, 2, null], [3, 4, 5]], "p10_us": [[1, 2, null], [3, 4, 5]],
               "p90_us": [[1, 2, null], [3, 4, 5]], "samples": [[1, 1, 0], [1, 1, 1]], "extra": 1}],
    "run": {"ios": 3},
    "schema": "ssdprobe/1.7"})");
  const auto saved = read_saved_result(file.string(), GridDetail::full);
  CHECK(saved.schema_minor == 7);
  CHECK(saved.read_page.bytes == 8192u);
  CHECK(saved.write_unit.state == "some_new_state");
  CHECK(saved.model == "M");
  CHECK(saved.measured);
  REQUIRE(saved.grids.size() == 1);
  CHECK(std::isnan(saved.grids[0].median_us[0][2]));
  CHECK(saved.grids[0].median_us[1][2] == 5.0);
}

TEST_CASE("a unit not determined reads back with the best candidate it leaned to") {
  const TempTree dir("ssdprobe-saved");
  const fs::path file = dir.root() / "candidate.json";
  save(file, R"({"schema": "ssdprobe/1",
    "detected": {"read_page": {"bytes": null, "state": "undetermined", "confidence": 0,
                               "best_candidate_bytes": 16384, "best_candidate_support": 0.62},
                 "write_unit": {"bytes": null, "state": "undetermined", "confidence": 0}},
    "target": {"model": "M", "size_bytes": 1000}})");
  const auto saved = read_saved_result(file.string(), GridDetail::none);
  CHECK(saved.read_page.best_candidate_bytes == 16384u);
  CHECK(saved.read_page.best_candidate_support == 0.62);
  CHECK_FALSE(saved.write_unit.best_candidate_bytes);  // no level at all: no candidate
}

TEST_CASE("bad documents are refused naming the file and the problem") {
  const TempTree dir("ssdprobe-saved");
  struct Case {
    const char* name;
    std::string text;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"v2.json", R"({"schema": "ssdprobe/2", "detected": {}})", "major version 2"},
      {"foreign.json", R"({"name": "not ours", "detected": {}})", "no \"schema\""},
      {"other-schema.json", R"({"schema": "fio/3"})", "schema \"fio/3\""},
      {"bad-version.json", R"({"schema": "ssdprobe/1.x"})", "not an ssdprobe result document"},
      {"array.json", R"([1, 2, 3])", "not a JSON object"},
      {"cut.json", R"({"schema": "ssdprobe/1", "target": {"model": "M)", "cut short"},
      {"empty.json", "", "empty"},
      {"wrong-type.json", R"({"schema": "ssdprobe/1", "detected": {"read_page": {"bytes": "16k"}}})",
       "detected.read_page.bytes has the wrong type"},
      {"shape.json",
       R"({"schema": "ssdprobe/1", "grids": [{"name": "read", "sizes": [4096], "offsets": [0, 1],
           "median_us": [[1]], "p10_us": [[1, 1]], "p90_us": [[1, 1]], "samples": [[1, 1]]}]})",
       "median_us is not 1 sizes x 2 offsets"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const fs::path file = dir.root() / c.name;
    save(file, c.text);
    const std::string message = refusal(file);
    CHECK(message.rfind(file.string() + ": ", 0) == 0);
    CHECK_THAT(message, Catch::Contains(c.expected));
  }
  CHECK_THAT(refusal(dir.root() / "missing.json"), Catch::Contains("cannot be read: No such file or directory"));
  fs::create_directory(dir.root() / "folder.json");
  CHECK_THAT(refusal(dir.root() / "folder.json"), Catch::Contains("cannot be read: it is a directory"));
}

TEST_CASE("what is not a document file is refused before it is read: a FIFO, a device, a huge file") {
  // Issue 18: a FIFO hung plot, compare and --units-from for ever (the
  // open blocked waiting for a writer), and a block device or a 1 GB file
  // was read whole into memory.
  const TempTree dir("ssdprobe-saved");
  const fs::path fifo = dir.root() / "fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(refusal(fifo), Catch::Contains("is not a regular file (a FIFO, socket or device)"));
  CHECK_THAT(refusal("/dev/zero"), Catch::Contains("is not a regular file"));
  const fs::path huge = dir.root() / "huge.json";
  { std::ofstream(huge) << "{}"; }
  fs::resize_file(huge, ssdprobe::kMaxDocumentBytes + 1);  // sparse: costs no disk
  const std::string message = refusal(huge);
  CHECK_THAT(message, Catch::Contains("more than the 64 MiB a result document may be"));
  CHECK(message.rfind(huge.string() + ": ", 0) == 0);
}

TEST_CASE("schema versions") {
  using ssdprobe::parse_schema_version;
  CHECK(parse_schema_version("ssdprobe/1") == std::pair{1, 0});
  CHECK(parse_schema_version("ssdprobe/1.12") == std::pair{1, 12});
  CHECK(parse_schema_version("ssdprobe/2") == std::pair{2, 0});
  CHECK_FALSE(parse_schema_version("ssdprobe/"));
  CHECK_FALSE(parse_schema_version("ssdprobe/1."));
  CHECK_FALSE(parse_schema_version("ssdprobe/1.2.3"));
  CHECK_FALSE(parse_schema_version("ssdprobe/-1"));
  CHECK_FALSE(parse_schema_version("other/1"));
}
