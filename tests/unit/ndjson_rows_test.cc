// compare --ndjson's rows (compare/ndjson_rows.h) from documents parsed in
// memory, and stream_fleet's order: every row has the same keys in the same
// order and only scalar values; the values are the document's; odd value
// types become null rather than costing the document its row; documents are
// handed over in file order however the readers interleave.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "compare/fleet_reader.h"
#include "compare/ndjson_rows.h"

using namespace ssdprobe;
using json = nlohmann::ordered_json;

namespace {

json row_of(const std::string& document, const std::string& name = "run.json") {
  const SavedResult result = parse_saved_result(document, name, GridDetail::none, ChartData::skip, RowFacts::read);
  const std::string line = ndjson_row(result);
  REQUIRE(line.back() == '\n');
  REQUIRE(line.find('\n') == line.size() - 1);  // one line
  return json::parse(line);
}

std::vector<std::string> keys(const json& row) {
  std::vector<std::string> out;
  for (const auto& [key, value] : row.items()) out.push_back(key);
  return out;
}

// A timed run on a disk with a DOS partition at sector 63, with a read page,
// a write-unit mismatch and audit costs on the partition and at an --at offset.
const char* kRich = R"({
  "schema": "ssdprobe/1.2", "tool": {"name": "ssdprobe", "version": "0.9.1"},
  "started_at": "2026-11-20T08:00:00Z", "hostname": "db7", "duration_s": 61.5,
  "options": {"write": true},
  "target": {"path": "/dev/sdb", "kind": "block", "size_bytes": 1000204886016, "model": "Acme \"SSD\" 1TB",
             "serial": "S1", "firmware": "FW2", "transport": "sata", "disk": "sdb"},
  "reported": {"logical_block_size": 512, "physical_block_size": 512, "minimum_io_size": 512,
               "optimal_io_size": 0, "alignment_offset": -512, "rotational": false, "write_cache": "write back",
               "kernel_version": "6.1.0", "nvme": null, "expectations": []},
  "detected": {
    "read_page": {"bytes": 16384, "state": "found", "confidence": 0.998},
    "write_unit": {"bytes": null, "state": "undetermined", "confidence": 0.0},
    "erase_block": {"bytes": null, "state": "absent", "confidence": 0.0, "searched_up_to_bytes": 8388608},
    "slc_cache": {"bytes": 134217728, "state": "found", "confidence": 0.97,
                  "write_unit": {"bytes": 16384, "state": "found", "confidence": 0.95}},
    "parallelism": {"queue_depth_knee": {"value": 32, "state": "found", "confidence": 0.99},
                    "plateau_iops": {"value": 101234.5, "state": "found", "confidence": 0.95},
                    "parallel_units": {"value": null, "state": "undetermined", "confidence": 0.0},
                    "interleave_bytes": {"value": 65536, "state": "found", "confidence": 0.93}}},
  "mismatches": [{"field": "minimum_io_size", "severity": "warning"},
                 {"field": "physical_block_size", "severity": "info"},
                 {"field": "minimum_io_size", "severity": "info"},
                 {"field": "partition[1].start", "severity": "error"}],
  "recommendations": {"partition_alignment_bytes": 1048576},
  "run": {},
  "audit": {"available": true,
    "checks": [
      {"field": "partition[1].start", "ok": false, "severity": "error",
       "costs": [{"op": "read", "request_bytes": 4096, "determined": true, "ratio": 1.4, "ratio_low": 1.3,
                  "ratio_high": 1.5, "significant": true},
                 {"op": "write", "request_bytes": 16384, "determined": false}]},
      {"field": "partition[2].start", "ok": false, "severity": "info"},
      {"field": "partition[1].ext4.block_size", "ok": false, "severity": "warning"},
      {"field": "partition[2].size", "ok": true, "severity": "info"}],
    "at": [{"field": "at", "ok": false, "severity": "warning",
            "costs": [{"op": "write", "request_bytes": 49152, "determined": true, "ratio": 2.25,
                       "ratio_low": 1.9, "ratio_high": 2.6, "significant": true}]}]}
})";

}  // namespace

TEST_CASE("an ndjson row holds the document's identity, units, reported values, mismatches and audit") {
  const json row = row_of(kRich);
  CHECK(row["row_schema"] == "ssdprobe-row/2");
  CHECK(row["file"] == "run.json");
  CHECK(row["host"] == "db7");
  CHECK(row["device"] == "/dev/sdb");
  CHECK(row["disk"] == "sdb");
  CHECK(row["model"] == "Acme \"SSD\" 1TB");
  CHECK(row["capacity_bytes"] == 1000204886016ull);
  CHECK(row["tool_version"] == "0.9.1");
  CHECK(row["schema_minor"] == 2);
  CHECK(row["duration_s"] == 61.5);
  CHECK(row["timed"] == true);
  CHECK(row["write"] == true);
  CHECK(row["partial"] == false);
  CHECK(row["stopped"].is_null());
  CHECK(row["wwid"].is_null());

  CHECK(row["reported_minimum_io_size"] == 512);
  CHECK(row["reported_alignment_offset"] == -512);  // negative, as the kernel prints it
  CHECK(row["reported_rotational"] == false);
  CHECK(row["reported_write_cache"] == "write back");
  CHECK(row["reported_discard_granularity"].is_null());  // not in the document

  CHECK(row["read_page_bytes"] == 16384);
  CHECK(row["read_page_state"] == "found");
  CHECK(row["read_page_confidence"] == 0.998);
  CHECK(row["write_unit_bytes"].is_null());
  CHECK(row["write_unit_state"] == "undetermined");
  CHECK(row["erase_block_state"] == "absent");
  CHECK(row["erase_block_searched_up_to_bytes"] == 8388608);  // ruled out: how far the probe could see
  CHECK(row["read_page_searched_up_to_bytes"].is_null());
  CHECK(row["write_stripe_state"].is_null());  // an older writer: no such unit
  CHECK(row["slc_cache_bytes"] == 134217728);
  CHECK(row["slc_cache_write_unit_bytes"] == 16384);
  CHECK(row["partition_alignment_bytes"] == 1048576);

  CHECK(row["parallelism_queue_depth_knee"].is_number_integer());
  CHECK(row["parallelism_queue_depth_knee"] == 32);
  CHECK(row["parallelism_plateau_iops"] == 101234.5);
  CHECK(row["parallelism_parallel_units"].is_null());
  CHECK(row["parallelism_parallel_units_state"] == "undetermined");
  CHECK(row["parallelism_interleave_bytes"] == 65536);
  CHECK(row["write_parallelism_queue_depth_knee_state"].is_null());

  CHECK(row["mismatches"] == 4);
  CHECK(row["mismatches_info"] == 2);
  CHECK(row["mismatches_warning"] == 1);
  CHECK(row["mismatches_error"] == 1);
  CHECK(row["mismatch_fields"] == "minimum_io_size,physical_block_size,partition[1].start");
  CHECK(row["mismatch_warning_fields"] == "minimum_io_size,partition[1].start");

  CHECK(row["audit_available"] == true);
  CHECK(row["audit_checks"] == 4);
  CHECK(row["audit_not_ok"] == 3);
  CHECK(row["audit_errors"] == 1);
  CHECK(row["audit_warnings"] == 1);
  CHECK(row["audit_infos"] == 1);
  CHECK(row["audit_misaligned_partitions"] == 1);  // partition 2 misses only 1 MiB (info)
  CHECK(row["partition_misaligned"] == true);
  // The --at offset costs more than the partition: the worst of both.
  CHECK(row["worst_cost_ratio"] == 2.25);
  CHECK(row["worst_cost_ratio_low"] == 1.9);
  CHECK(row["worst_cost_significant"] == true);
  CHECK(row["worst_cost_field"] == "at");
  CHECK(row["worst_cost_op"] == "write");
  CHECK(row["worst_cost_request_bytes"] == 49152);
}

TEST_CASE("every ndjson row has the same keys in the same order, and only scalar values") {
  const json rich = row_of(kRich);
  const json bare = row_of(R"({"schema": "ssdprobe/1"})");
  CHECK(keys(rich) == keys(bare));
  CHECK(rich.size() > 90);
  for (const json* row : {&rich, &bare}) {
    for (const auto& [key, value] : row->items()) {
      INFO(key);
      CHECK(!value.is_object());
      CHECK(!value.is_array());
    }
  }
  CHECK(bare["host"].is_null());
  CHECK(bare["read_page_state"].is_null());
  CHECK(bare["audit_available"].is_null());
  CHECK(bare["partition_misaligned"].is_null());
  CHECK(bare["worst_cost_ratio"].is_null());
  CHECK(bare["mismatch_fields"] == "");
  CHECK(bare["mismatches"] == 0);
  CHECK(bare["partial"] == false);
}

TEST_CASE("a run stopped early is a partial row, saying how it stopped") {
  const json row = row_of(R"({"schema": "ssdprobe/1", "run": {}, "interrupted": true,
    "phases": [{"name": "read_grid", "state": "interrupted", "reason": "interrupted by signal 2"},
               {"name": "read_parallelism", "state": "not_run", "reason": "interrupted by signal 2 during ..."}]})");
  CHECK(row["partial"] == true);
  CHECK(row["stopped"] == "run stopped in the read_grid phase (interrupted by signal 2)");
  CHECK(row_of(R"({"schema": "ssdprobe/1", "interrupted": true})")["partial"] == true);  // an older writer's
  CHECK(row_of(R"({"schema": "ssdprobe/1", "interrupted": false})")["partial"] == false);
}

TEST_CASE("odd value types become null in the row; the document still has one") {
  const json row = row_of(R"({"schema": "ssdprobe/1",
    "reported": {"discard_granularity": "lots"},
    "detected": {"write_stripe": {"bytes": "big", "state": "found", "confidence": "high"},
                 "parallelism": {"plateau_iops": {"value": "fast", "state": 3}}},
    "audit": {"available": "yes", "checks": [{"field": 7, "ok": "no", "costs": [{"ratio": "x"}]}]}})");
  CHECK(row["reported_discard_granularity"] == "lots");  // the document's own JSON value, copied
  CHECK(row["write_stripe_bytes"].is_null());
  CHECK(row["write_stripe_state"] == "found");
  CHECK(row["write_stripe_confidence"] == 0.0);
  CHECK(row["parallelism_plateau_iops"].is_null());
  CHECK(row["parallelism_plateau_iops_state"].is_null());
  CHECK(row["audit_available"] == false);
  CHECK(row["audit_checks"] == 1);
  CHECK(row["worst_cost_ratio"].is_null());
}

TEST_CASE("a partition target's own misaligned start counts without an audit") {
  const json row = row_of(R"({"schema": "ssdprobe/1", "audit": null,
    "mismatches": [{"field": "partition_start", "severity": "warning"}]})");
  CHECK(row["partition_misaligned"] == true);
  CHECK(row["audit_available"].is_null());
}

TEST_CASE("a file name that is not UTF-8 is escaped in the row") {
  const json row = row_of(R"({"schema": "ssdprobe/1"})", "runs/\xff.json");
  CHECK(row["file"] == "runs/\\xff.json");
}

TEST_CASE("stream_fleet hands documents over in file order, skipped ones with their warning") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ndjson_rows_test." + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> files;
  for (int i = 0; i < 200; ++i) {
    const std::string file = (dir / ("d" + std::to_string(1000 + i) + ".json")).string();
    std::ofstream(file) << (i % 7 == 3 ? std::string("{\"schema\": ") :
                                         "{\"schema\": \"ssdprobe/1\", \"hostname\": \"h" + std::to_string(i) + "\"}");
    files.push_back(file);
  }
  std::vector<std::string> seen;
  stream_fleet(files, 8, FleetReading{false, true}, [&](ReadDocument& d) {
    CHECK(!d.summary);
    seen.push_back(d.warning.empty() ? json::parse(d.row)["host"].get<std::string>() : "skipped");
  });
  fs::remove_all(dir);
  REQUIRE(seen.size() == files.size());
  for (int i = 0; i < 200; ++i) CHECK(seen[i] == (i % 7 == 3 ? "skipped" : "h" + std::to_string(i)));
}

TEST_CASE("stream_fleet stops its readers when taking a document throws") {
  const std::vector<std::string> files(50, "/nonexistent/ndjson_rows_test.json");
  int taken = 0;
  CHECK_THROWS_AS(stream_fleet(files, 4, FleetReading{}, [&](ReadDocument&) {
                    if (++taken == 3) throw std::runtime_error("stop");
                  }),
                  std::runtime_error);
  CHECK(taken == 3);
}
