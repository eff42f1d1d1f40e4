// The result of a run, as data: what ../shared/spec/result-json.md calls the
// result document, before it is written as JSON (json_report) or text
// (text_report). Analysis fills `detected`, `mismatches`, `recommendations`;
// the command layer fills the rest.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/latency_grid.h"
#include "analysis/step_model.h"
#include "device/topology.h"

namespace ssdprobe {

// state: "found" (bytes set), "absent" (no level, and any level large enough
// to matter is ruled out), "undetermined" (the data neither show nor rule one
// out: more IOs, a larger --budget, would tell), "not_measured".
struct DetectedUnit {
  std::optional<uint64_t> bytes;
  std::string state = "not_measured";
  double confidence = 0.0;
  std::string evidence;
  std::vector<LevelEstimate> levels;  // every level found (grid probes)
  std::string device_state;           // what the drive had been through (write probes)
  std::optional<uint64_t> searched_up_to_bytes;  // erase block: largest period that could show
  std::optional<double> fit_dispersion;           // grid probes: residual / dof of the fitted levels
};

struct Mismatch {
  std::string field;                  // the reported field's name, e.g. "minimum_io_size"
  std::optional<int64_t> reported;
  std::optional<int64_t> detected;
  std::string severity;               // "info" | "warning" | "error"
  std::string message;
};

struct Recommendations {
  uint64_t partition_start_bytes = 1 << 20;
  uint64_t partition_alignment_bytes = 1 << 20;
  uint64_t filesystem_block_bytes = 4096;
  std::map<std::string, std::string> commands;  // parted, sfdisk, mkfs_xfs, mkfs_ext4, mkfs_f2fs, pvcreate
  std::vector<std::string> notes;
};

struct GridReport {
  std::string name = "read";
  std::string op = "read";
  uint32_t queue_depth = 1;
  LatencyGrid grid;                    // raw latencies, as measured
  std::vector<double> round_shift_us;  // drift removed per sampling round before analysis
};

struct WriteProbeSummary {
  uint64_t offset = 0, length = 0;   // the only bytes written
  bool preserved = true;
  std::string journal;               // path while it existed
  uint64_t bytes_written = 0;
  bool restored = false;             // content written back and read back identical
  std::string restore_message;
  std::string grid_stop_reason;      // why the write grid stopped: settled, budget, byte cap, round limit
  int grid_rounds = 0;
  uint64_t stream_chunk_bytes = 0;
  uint64_t streamed_bytes = 0;       // window bytes each stream pass covered (less than length when cut to --budget)
  std::vector<double> stream_latency_us;  // the timed sequential pass
  nlohmann::ordered_json write_amplification = nullptr;  // from SMART counters, when the drive has them
};

// What the firmware itself reports (src/firmware), as the spec's JSON
// sections; null where the target has no such interface.
struct FirmwareSection {
  nlohmann::ordered_json nvme = nullptr, ata = nullptr, scsi = nullptr, smart = nullptr;
  nlohmann::ordered_json expectations = nlohmann::ordered_json::array();  // what sysfs should show, per source
  std::string identity_source;
};

struct RunSummary {
  std::string engine;
  uint64_t ios = 0;
  int rounds = 0;
  double device_time_s = 0.0;  // on the device's clock (virtual for sims)
  std::string stop_reason;
};

struct ResultDocument {
  std::string started_at;   // ISO 8601 UTC
  double duration_s = 0.0;
  nlohmann::ordered_json options = nlohmann::ordered_json::object();
  std::string path;
  TargetKind kind = TargetKind::block;
  Topology topology;
  FirmwareSection firmware;
  DetectedUnit read_page, write_unit, erase_block;
  std::vector<Mismatch> mismatches;
  Recommendations recommendations;
  std::vector<GridReport> grids;
  std::optional<RunSummary> run;   // absent for `info`
  std::optional<WriteProbeSummary> write_probe;  // absent unless --write
  std::vector<std::string> notes;  // plan adaptations, engine fallbacks
};

}  // namespace ssdprobe
