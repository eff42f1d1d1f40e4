// `--units-from`: the units of a saved document are used only when they have
// a shape the probes can report (issue 18: 1 B, 3 B and 2^64 - 1 were taken,
// and the audit then asked for layer starts on multiples of 3 MiB).
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "report/result_reader.h"
#include "run/document.h"
#include "run_cli.h"
#include "temp_tree.h"

using nlohmann::json;
using ssdprobe::read_measured_units;
namespace fs = std::filesystem;
using test_support::run_ssdprobe;
using test_support::TempTree;

namespace {

// A real --write run's document with one detected unit replaced.
fs::path with_unit(const TempTree& dir, const fs::path& real, const std::string& unit, uint64_t bytes) {
  std::ifstream in(real);
  json doc = json::parse(in);
  doc["detected"][unit]["bytes"] = bytes;
  const fs::path out = dir.root() / (unit + "-" + std::to_string(bytes) + ".json");
  std::ofstream(out) << doc.dump();
  return out;
}

std::string refusal(const fs::path& file) {
  try {
    read_measured_units(file.string());
  } catch (const ssdprobe::Error& e) {
    CHECK(e.category() == ssdprobe::ErrorCategory::usage);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("--units-from takes the units a real run measured") {
  const TempTree dir("ssdprobe-units-from");
  const fs::path real = dir.root() / "r.json";
  REQUIRE(run_ssdprobe({"-q", "--write", "--yes", "--json", real.string(), "sim:nvme-tlc-16k"}) == 0);
  const auto units = read_measured_units(real.string());
  CHECK(units.read_page == 16384u);
  CHECK(units.write_unit == 49152u);  // 48 KiB: three times a power of two
  CHECK(units.erase_block == 24u << 20);
  // Other shapes the probes report are taken too.
  CHECK(read_measured_units(with_unit(dir, real, "read_page", 512).string()).read_page == 512u);
  CHECK(read_measured_units(with_unit(dir, real, "write_unit", 3u << 10).string()).write_unit == 3072u);
  CHECK(read_measured_units(with_unit(dir, real, "erase_block", 6u << 20).string()).erase_block == 6u << 20);
}

TEST_CASE("--units-from refuses units no probe reports, naming the field") {
  const TempTree dir("ssdprobe-units-from");
  const fs::path real = dir.root() / "r.json";
  REQUIRE(run_ssdprobe({"-q", "--write", "--yes", "--json", real.string(), "sim:nvme-tlc-16k"}) == 0);
  for (const uint64_t bad : {uint64_t{1}, uint64_t{3}, uint64_t{0}, UINT64_MAX, uint64_t{5} << 10, uint64_t{1} << 40,
                             uint64_t{4095} * 3}) {
    INFO(bad);
    const std::string why = refusal(with_unit(dir, real, "read_page", bad));
    CHECK(why.find("detected.read_page.bytes") != std::string::npos);
    CHECK(why.find(std::to_string(bad)) != std::string::npos);
  }
  CHECK(refusal(with_unit(dir, real, "write_unit", 3)).find("detected.write_unit.bytes is 3,") != std::string::npos);
  for (const uint64_t bad : {uint64_t{1}, uint64_t{513}, uint64_t{2048}, UINT64_MAX, uint64_t{65} << 30}) {
    INFO(bad);
    CHECK(refusal(with_unit(dir, real, "erase_block", bad)).find("detected.erase_block.bytes") != std::string::npos);
  }
}

TEST_CASE("--units-from warns of a document about another device, naming what differs, or with no unit") {
  using ssdprobe::saved_units_warnings;
  ssdprobe::Topology here;
  here.model = "Model A";
  here.serial = "S1";
  ssdprobe::MeasuredUnits saved;
  saved.path = "/dev/sda";
  saved.model = "Model A";
  saved.serial = "S1";
  saved.read_page = 16384;
  // The same serial under another name is the same drive.
  CHECK(saved_units_warnings(saved, here, "/dev/disk/by-id/x", "r.json").empty());
  saved.serial = "S2";
  auto w = saved_units_warnings(saved, here, "/dev/sdb", "r.json");
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("--units-from r.json: the document describes another device") == 0);
  CHECK(w[0].find("serial 'S2', this drive 'S1'") != std::string::npos);
  CHECK(w[0].find("measured on /dev/sda, auditing /dev/sdb") != std::string::npos);
  CHECK(w[0].find("model") == std::string::npos);  // the model agrees
  // No serials (loop devices, sims): the path is what tells.
  saved = {};
  saved.path = "sim:nvme-tlc-16k";
  w = saved_units_warnings(saved, {}, "/dev/loop3", "r.json");
  REQUIRE(w.size() == 2);
  CHECK(w[0].find("measured on sim:nvme-tlc-16k, auditing /dev/loop3") != std::string::npos);
  CHECK(w[1].find("determined no unit") != std::string::npos);
  CHECK(w[1].find("only the block sizes, 4 KiB and 1 MiB") != std::string::npos);
}
