// The result document end to end through the command line on a simulated
// drive: every field of docs/result-json.md is present with the
// right type, the grid has the declared shape, and bad input leaves no file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_cli.h"
#include "temp_tree.h"

using nlohmann::json;
namespace fs = std::filesystem;
using test_support::run_ssdprobe;
using test_support::TempTree;

namespace {

json load(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

}  // namespace

TEST_CASE("characterize writes every spec field") {
  const TempTree dir("ssdprobe-doc");
  const fs::path out = dir.root() / "r.json";
  REQUIRE(run_ssdprobe({"-q", "--seed", "3", "--json", out.string(), "sim:nvme-tlc-16k"}) == 0);
  const json d = load(out);
  CHECK(d["schema"] == "ssdprobe/1");
  CHECK(d["tool"]["name"] == "ssdprobe");
  CHECK(d["tool"]["version"].is_string());
  CHECK(d["started_at"].get<std::string>().size() == 20);
  CHECK(d["duration_s"].is_number());
  CHECK(d["options"]["write"] == false);
  CHECK(d["options"]["seed"] == 3);
  CHECK(d["options"]["budget_s"] == 60.0);
  CHECK(d["options"]["target"] == "sim:nvme-tlc-16k");
  for (const char* key : {"path", "kind", "size_bytes", "model", "serial", "firmware", "transport"}) {
    INFO(key);
    CHECK(d["target"].contains(key));
  }
  CHECK(d["target"]["kind"] == "sim");
  for (const char* key : {"logical_block_size", "physical_block_size", "minimum_io_size", "optimal_io_size",
                          "alignment_offset", "discard_granularity", "rotational", "nvme", "ata"}) {
    INFO(key);
    CHECK(d["reported"].contains(key));
  }
  CHECK(d["detected"]["read_page"]["bytes"] == 16384);
  CHECK(d["detected"]["read_page"]["confidence"].get<double>() >= 0.9);
  CHECK(d["detected"]["write_unit"]["bytes"].is_null());
  CHECK(d["detected"]["write_unit"]["evidence"].get<std::string>().find("writes") != std::string::npos);
  CHECK(d["detected"]["erase_block"]["bytes"].is_null());
  CHECK(d["detected"]["write_stripe"]["state"] == "not_measured");
  CHECK(d["detected"]["write_stripe"]["to_determine"] == "rerun with --write");
  CHECK(d["detected"]["write_stripe"]["agrees_with_parallel_units"].is_null());
  // Writes are timed only with --write: the write sweep is not measured.
  for (const char* value : {"queue_depth_knee", "plateau_iops", "parallel_units", "interleave_bytes"}) {
    INFO(value);
    CHECK(d["detected"]["write_parallelism"][value]["state"] == "not_measured");
    CHECK(d["detected"]["write_parallelism"][value]["evidence"].get<std::string>().find("--write") != std::string::npos);
  }
  CHECK(d["write_parallelism_probe"].is_null());
  CHECK(d["detected"]["parallelism"]["queue_depth_knee"]["interval"].size() == 2);
  CHECK(d["parallelism_probe"]["refined_depths"].is_array());
  CHECK(d["parallelism_probe"]["single_p25_us"].get<double>() <= d["parallelism_probe"]["single_p50_us"].get<double>());
  for (const auto& stride : d["parallelism_probe"]["strides"]) {
    CHECK(stride["pair_p25_us"].get<double>() <= stride["pair_p50_us"].get<double>());
    CHECK(stride.contains("excess_p25"));
  }
  CHECK(d["mismatches"][0]["field"] == "minimum_io_size");
  for (const char* key : {"partition_start_bytes", "partition_alignment_bytes", "filesystem_block_bytes", "commands",
                          "steps", "verdict", "notes", "block_size_advice"}) {
    INFO(key);
    CHECK(d["recommendations"].contains(key));
  }
  CHECK(d["recommendations"]["verdict"].is_null());
  // One drive, no LVM asked for: partition table, then one of the filesystems.
  const json& steps = d["recommendations"]["steps"];
  // The block size advice adds mkfs_ext4_bigalloc and, from Linux 6.12, mkfs_xfs_large_block.
  REQUIRE(steps.size() >= 7);
  size_t i = 0;
  for (const char* tool : {"parted", "sfdisk", "sgdisk", "mkfs_xfs", "mkfs_ext4", "mkfs_f2fs"}) {
    INFO(tool);
    CHECK(steps[i]["key"] == tool);
    CHECK(d["recommendations"]["commands"][tool] == steps[i]["command"]);
    CHECK(steps[i]["destroys_data"] == true);
    const std::string warning = steps[i]["warning"].get<std::string>();
    CHECK((warning.find("PARTITION") != std::string::npos || warning.find("DISK") != std::string::npos));
    CHECK(steps[i]["alternative_group"] == (i < 3 ? "partition" : "filesystem"));
    ++i;
  }
  for (; i < steps.size(); ++i) {
    const std::string key = steps[i]["key"].get<std::string>();
    CHECK((key == "mkfs_ext4_bigalloc" || key == "mkfs_xfs_large_block"));
    CHECK(steps[i]["alternative_group"] == "filesystem");
  }
  const json& advice = d["recommendations"]["block_size_advice"];
  REQUIRE(advice.size() == 6);
  for (const auto& item : advice) {
    CHECK(item["what"].is_string());
    CHECK((item["command"].is_null() || item["command"].is_string()));
    CHECK(item["applies"].is_boolean());
    CHECK(item["why"].is_string());
    CHECK((item["step"].is_null() || item["step"].is_string()));
  }
  const json& grid = d["grids"][0];
  CHECK(grid["name"] == "read");
  CHECK(grid["op"] == "read");
  CHECK(grid["queue_depth"] == 1);
  const size_t rows = grid["sizes"].size(), columns = grid["offsets"].size();
  for (const char* key : {"median_us", "p10_us", "p90_us", "p99_us", "samples"}) {
    INFO(key);
    REQUIRE(grid[key].size() == rows);
    for (const auto& row : grid[key]) CHECK(row.size() == columns);
  }
  uint64_t total = 0;
  for (const auto& row : grid["samples"]) {
    for (const auto& n : row) total += n.get<uint64_t>();
  }
  CHECK(total == d["run"]["ios"].get<uint64_t>());
  // The first look named the page after a share of those IOs, which are in the grid's counts.
  const json& look = grid["first_look"];
  CHECK(look["request_bytes"] == 1024);
  CHECK(look["unit_bytes"] == d["detected"]["read_page"]["bytes"]);
  CHECK(look["rounds"] == 2);
  CHECK(look["ios"].get<uint64_t>() < total);
  CHECK(look["support"].get<double>() >= 0.97);
}

TEST_CASE("--write adds the write half of the parallelism probe, inside the write window") {
  const TempTree dir("ssdprobe-doc");
  const fs::path out = dir.root() / "w.json";
  REQUIRE(run_ssdprobe({"-q", "--write", "--yes", "--seed", "2", "--json", out.string(), "sim:channels-4x16k"}) == 0);
  const json d = load(out);
  const json& w = d["detected"]["write_parallelism"];
  // The simulated drive's truth: 4 units every 16 KiB, for writes as for reads.
  CHECK(w["parallel_units"]["value"] == 4);
  CHECK(w["interleave_bytes"]["value"] == 16384);
  CHECK(w["queue_depth_knee"]["state"] == "found");
  CHECK(w["plateau_iops"]["value"].get<double>() > 0.0);
  const json& probe = d["write_parallelism_probe"];
  CHECK(probe["write_bytes"] == 4096);
  CHECK_FALSE(probe.contains("read_bytes"));
  CHECK(probe["region"] == d["write_probe"]["region"]);
  CHECK(probe["rounds"] == 3);
  CHECK(probe["queue_depths"].back()["queue_depth"] == 32);  // the drive's NCQ limit
  // Its writes are counted with the other probes' (a 64-write warm-up included).
  CHECK(d["write_probe"]["bytes_written"].get<uint64_t>() > (probe["ios"].get<uint64_t>() + 64) * 4096);
  bool advice = false;
  for (const auto& note : d["recommendations"]["notes"]) {
    if (note.get<std::string>().find("writes outstanding") != std::string::npos) advice = true;
  }
  CHECK(advice);
}

TEST_CASE("--write on a striped drive: the page is the write unit, the stripe is beside it") {
  const TempTree dir("ssdprobe-doc");
  const fs::path out = dir.root() / "s.json";
  REQUIRE(run_ssdprobe({"-q", "--write", "--yes", "--seed", "4", "--json", out.string(), "sim:nvme-striped-16k"}) == 0);
  const json d = load(out);
  const json& unit = d["detected"]["write_unit"];
  const json& stripe = d["detected"]["write_stripe"];
  CHECK(unit["bytes"] == 16384);
  CHECK(stripe["state"] == "found");
  CHECK(stripe["bytes"] == 65536);
  CHECK(stripe["program_unit_bytes"] == 16384);
  CHECK(stripe["units"] == 4);
  CHECK(stripe["confidence"].get<double>() >= 0.9);
  CHECK(stripe["regime"] == unit["regime"]);
  CHECK_FALSE(stripe.contains("to_determine"));
  // The drive's 4 units every 16 KiB, as the parallelism probe finds them.
  CHECK(stripe["parallel_units"] == 4);
  CHECK(stripe["agrees_with_parallel_units"] == true);
  bool round_level = false;
  for (const auto& level : unit["levels"]) {
    if (level["cost"] == "per_stripe_round") round_level = level["bytes"] == 16384 && level["stripe_units"] == 4;
  }
  CHECK(round_level);
  // Advice aligns on the program unit and names the stripe as a write size.
  CHECK(d["recommendations"]["partition_alignment_bytes"] == 1 << 20);
  bool stripe_note = false;
  for (const auto& note : d["recommendations"]["notes"]) {
    stripe_note |= note.get<std::string>().find("a 64 KiB stripe): partitions and filesystem blocks align to the "
                                                "16 KiB write unit") != std::string::npos;
  }
  CHECK(stripe_note);
  CHECK(d["verdict"]["units"][1]["text"].get<std::string>().find("write unit 16 KiB") == 0);
  CHECK(d["verdict"]["summary"].get<std::string>().find("write unit 64 KiB") == std::string::npos);
}

TEST_CASE("info writes the same document with nothing detected and no grid") {
  const TempTree dir("ssdprobe-doc");
  const fs::path out = dir.root() / "info.json";
  REQUIRE(run_ssdprobe({"info", "--json", out.string(), "sim:sata-mlc-8k"}) == 0);
  const json d = load(out);
  CHECK(d["schema"] == "ssdprobe/1");
  CHECK(d["grids"].empty());
  for (const char* unit : {"read_page", "write_unit", "write_stripe", "erase_block"}) {
    CHECK(d["detected"][unit]["bytes"].is_null());
    CHECK(d["detected"][unit]["evidence"].get<std::string>().find("no timing IO") != std::string::npos);
  }
  CHECK(d["reported"]["logical_block_size"] == 512);
  CHECK(d["detected"]["write_parallelism"]["queue_depth_knee"]["evidence"].get<std::string>().find("no timing IO") !=
        std::string::npos);
}

TEST_CASE("bad input exits with its documented code and leaves no JSON behind") {
  const TempTree dir("ssdprobe-doc");
  const fs::path out = dir.root() / "never.json";
  const std::string json_arg = out.string();
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "/no/such/device"}) == 3);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, dir.root().string()}) == 3);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "/dev/null"}) == 3);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "sim:no-such-drive"}) == 3);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "--budget", "abc", "sim:clean-4k"}) == 2);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "--region", "1G", "sim:clean-4k"}) == 2);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "--region", "x:1M", "sim:clean-4k"}) == 2);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "--qd", "0", "sim:clean-4k"}) == 2);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "--engine", "spdk", "sim:clean-4k"}) == 2);
  CHECK(run_ssdprobe({"-q", "--json", json_arg, "--region", "100G:1G", "sim:clean-4k"}) == 2);
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(json_arg + ".partial"));
}
