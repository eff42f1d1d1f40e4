// Reads a saved result document (docs/result-json.md) back into plain data,
// for the commands that work on documents rather than drives: `plot`,
// `compare`, `audit --units-from`. Fleets keep thousands of these (each
// 150-250 KB, mostly grid numbers), so the reader is simdjson's on-demand
// parser: it skips what the caller did not ask for without building a tree.
//
// What the reader promises, per docs/result-json.md "Versioning":
//  - "ssdprobe/1" and any "ssdprobe/1.N" (a newer minor version: only added
//    fields) are read; unknown keys are ignored, key order does not matter;
//  - another major version ("ssdprobe/2") is refused naming the version;
//  - a document that is not JSON, is cut short, or has a field this reader
//    uses with the wrong type is refused naming the file and the field;
//  - unknown enumeration values are kept as text, never an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssdprobe {

struct SavedUnit {
  std::optional<uint64_t> bytes;  // null unless state is "found"
  std::string state;              // found, absent, undetermined, not_measured (or a newer writer's value)
  double confidence = 0.0;
  std::optional<uint64_t> searched_up_to_bytes;  // ruled out: how far the probe could see
  std::string to_determine;                       // what would tell (not determined / not measured)
  // Not determined: the unit the fit leaned to and its bootstrap support
  // (detected.*.best_candidate_bytes, _support); absent otherwise.
  std::optional<uint64_t> best_candidate_bytes;
  double best_candidate_support = 0.0;
};

struct SavedMismatch {
  std::string field, severity;
  std::optional<uint64_t> reported, detected;  // null where the document has null or a non-integer
};

// One timed grid: rows are request sizes, columns offsets (bytes from the
// region start), as in the document. Matrices are [size][offset]; a cell
// without samples is NaN.
struct SavedGrid {
  std::string name, op;
  uint32_t queue_depth = 1;
  std::vector<uint64_t> sizes, offsets;
  std::vector<std::vector<double>> median_us, p10_us, p90_us;  // p10/p90 only with GridDetail::full
  std::vector<std::vector<uint32_t>> samples;                  // only with GridDetail::full
};

// How much of the grids to read: none (fastest: identity, units, mismatches),
// medians (what a comparison of key cells needs), full (what a plot needs).
enum class GridDetail { none, medians, full };

// ---- What `plot --picture` draws besides the grids (read only with
// ---- ChartData::read: a comparison over thousands of documents skips it).
enum class ChartData { skip, read };

// One value of detected.parallelism / detected.write_parallelism.
struct SavedParallelValue {
  std::optional<double> value;  // null unless state is "found"
  std::string state;            // found, undetermined, not_measured
  double confidence = 0.0;
  std::optional<std::pair<double, double>> interval;  // 95 % bootstrap interval
};

// One depth of parallelism_probe.queue_depths[].
struct SavedDepth {
  uint32_t queue_depth = 0;
  double iops = 0.0, p50_us = 0.0, p99_us = 0.0;
};

// parallelism_probe or write_parallelism_probe, with the knee and plateau
// detected from it.
struct SavedQueueSweep {
  bool present = false;     // the probe object is in the document (not null)
  uint64_t io_bytes = 0;    // read_bytes / write_bytes
  std::vector<SavedDepth> depths;
  SavedParallelValue knee, plateau;  // queue_depth_knee, plateau_iops
};

// write_probe.stream: entry k of latency_us covers first_offset() + k *
// chunk_bytes (the stream's own offset; documents from before it had one
// started the stream at the write window's).
struct SavedStream {
  bool present = false;
  uint64_t region_offset = 0, chunk_bytes = 0, streamed_bytes = 0;
  std::optional<uint64_t> stream_offset;
  std::vector<double> latency_us;
  uint64_t first_offset() const { return stream_offset.value_or(region_offset); }
};

// detected.slc_cache: its unit fields and the first fill's curve.
struct SavedCacheCurve {
  SavedUnit unit;  // state empty when the document has no slc_cache
  std::optional<double> in_cache_bytes_per_s, native_bytes_per_s;
  uint64_t written_bytes = 0, cap_bytes = 0, io_bytes = 0;
  std::vector<std::pair<uint64_t, double>> curve;  // {written_bytes, bytes_per_s}
};

// audit.checks[].costs[]: one request size and op at one audited start.
struct SavedCost {
  std::string op, grid, evidence;
  uint64_t request_bytes = 0;
  bool determined = false, significant = false;
  std::optional<double> ratio, ratio_low, ratio_high;  // absent unless determined
};

// An audit check that has costs (a start, after timing).
struct SavedCostedStart {
  std::string field, layer;
  std::optional<uint64_t> disk_offset;
  uint64_t value_bytes = 0;
  bool ok = false;
  std::vector<SavedCost> costs;
};

struct SavedChartData {
  SavedQueueSweep read_sweep, write_sweep;  // parallelism_probe, write_parallelism_probe
  SavedStream stream;                       // write_probe.stream
  SavedCacheCurve slc_cache;
  bool audit_present = false, audit_available = false;
  std::string audit_reason;
  std::vector<SavedCostedStart> costed_starts;  // checks with a non-empty costs array
  std::vector<SavedCostedStart> costed_at;      // audit.at[] (--at OFFSETS) with a non-empty costs array
};

// ---- What `compare --ndjson` puts in a document's row beyond the fields
// ---- of SavedResult (docs/compare.md "NDJSON rows for a warehouse"). Read
// ---- leniently: a value of an odd type is left out (null in the row), never
// ---- a reason to refuse a document the other outputs would read.

// The audit's findings, counted (audit.checks[], audit.at[]).
struct SavedAuditCounts {
  bool present = false;    // `audit` is an object (null for info documents)
  bool available = false;  // audit.available
  uint32_t checks = 0;     // audit.checks[]
  uint32_t not_ok = 0, errors = 0, warnings = 0, infos = 0;  // checks not OK, by severity
  // partition[N].start checks not OK with severity warning or error: the
  // partition misses the logical block, 4 KiB, the physical block, the read
  // page or the write unit (missing only 1 MiB is info, not counted).
  uint32_t misaligned_partitions = 0;
  // The determined audit cost (checks[] and at[]) with the largest ratio.
  std::optional<double> worst_ratio, worst_ratio_low, worst_ratio_high;
  bool worst_significant = false;
  std::string worst_field, worst_op;  // "partition[1].start" or "at"; "read" or "write"
  uint64_t worst_request_bytes = 0;
};

struct SavedRowFacts {
  std::string disk;  // target.disk ("" when null)
  // Every unit-shaped object under `detected` by its key (read_page,
  // write_unit, write_stripe, erase_block, slc_cache, and a newer writer's),
  // and detected.slc_cache.write_unit as "slc_cache_write_unit".
  std::vector<std::pair<std::string, SavedUnit>> units;
  // detected.parallelism and write_parallelism values, as
  // "parallelism.queue_depth_knee", "write_parallelism.interleave_bytes"...
  std::vector<std::pair<std::string, SavedParallelValue>> parallel_values;
  // Each scalar field of `reported` (the sysfs values: numbers, booleans,
  // strings, null) as its JSON text, by name.
  std::vector<std::pair<std::string, std::string>> reported_json;
  SavedAuditCounts audit;
};

struct SavedResult {
  std::string file;                // where it was read from
  int schema_major = 1, schema_minor = 0;
  std::string tool_version, started_at;
  double duration_s = 0.0;
  bool measured = false;           // a timed run (`run` present), not an `info` document
  bool write = false;              // the run had --write (options.write)

  // target
  std::string path, kind, model, serial, firmware, transport;
  uint64_t size_bytes = 0;

  // What the kernel reported (sysfs), null where the document has null.
  std::optional<uint64_t> logical_block, physical_block, minimum_io, optimal_io, alignment_offset;
  // What the firmware reported about geometry, by dotted name in the
  // document ("nvme.npwg_bytes", "nvme.nows_bytes", "ata.physical_sector_bytes",
  // "scsi.optimal_transfer_bytes"...): only integer fields that describe a
  // size the drive wants to be addressed in, in document order.
  std::vector<std::pair<std::string, uint64_t>> firmware_geometry;

  SavedUnit read_page, write_unit, erase_block;
  SavedUnit write_unit_in_cache;  // detected.slc_cache.write_unit (state empty when absent)
  std::vector<SavedMismatch> mismatches;
  std::optional<uint64_t> partition_alignment, partition_start;  // recommendations
  std::vector<SavedGrid> grids;    // empty with GridDetail::none
  SavedChartData charts;           // empty with ChartData::skip

  // --- Where and which drive, for `compare`'s coverage and grouping of
  // drives without a model (docs/compare.md). Read by read_fleet_identity.
  std::string hostname;  // top-level `hostname`; "" when null or absent
  // The drive's world-wide name where the document has one: NVMe Identify
  // Namespace `nguid`, else `eui64` (lower-case hex); "" when absent, null or
  // all zeros (the drive does not give one). target has no WWID field.
  std::string wwid;

  // --- What monitoring reads (report/prometheus_metrics.h). Read by
  // read_monitoring_fields.
  // verdict.findings_by_severity in document order ("error", "warning",
  // "info"); empty when the document has none (an older writer's).
  std::vector<std::pair<std::string, uint64_t>> findings_by_severity;
  // Which command made the document: "run" for a timed run, else the
  // subcommand of command_line ("audit", "info"), "info" when that is absent.
  std::string command;

  // --- How the run ended, for `compare` (a stopped run is a partial
  // document). Read by read_run_stop.
  // "run stopped in the read_grid phase (interrupted by signal 2)" when the
  // run stopped early (a signal, or an error that left phases not run), in
  // the words of the verdict's `stopped`; "" when every phase had its turn,
  // or the document does not say (an older writer's without phases).
  std::string stopped;

  // --- The drive's wear when the run began, for `compare --baseline`, from
  // the NVMe SMART log (reported.nvme.smart); unset where the document has
  // none. Read by read_wear, leniently.
  std::optional<uint64_t> percentage_used;     // percentage_used (may pass 100)
  std::optional<uint64_t> data_written_bytes;  // data_units_written_bytes

  SavedRowFacts row;  // read only with RowFacts::read
};

// Whether to read SavedRowFacts (compare --ndjson); the other readers skip it.
enum class RowFacts { skip, read };

// The largest file read as a result document. A real run's document is far
// smaller (its grids keep per-cell statistics, not every sample; a --write
// run on the default window is about 300 KiB), and parsing costs about ten
// times the file's size in memory, so a larger file is refused unread.
constexpr uint64_t kMaxDocumentBytes = 64ull << 20;

// Throws Error(usage) whose message starts with the file name and says what is
// wrong: unreadable, not a regular file (a FIFO is refused without waiting
// for a writer), larger than kMaxDocumentBytes, not JSON or cut short, not a
// result document, another major schema version, a field of the wrong type.
SavedResult read_saved_result(const std::string& file, GridDetail detail, ChartData charts = ChartData::skip,
                              RowFacts row = RowFacts::skip);

// The same from text already in memory; `name` stands for the file in
// messages (fuzzing, documents that did not come from a file).
SavedResult parse_saved_result(std::string_view text, const std::string& name, GridDetail detail,
                               ChartData charts = ChartData::skip, RowFacts row = RowFacts::skip);

// The schema string's versions: "ssdprobe/1" -> {1, 0}, "ssdprobe/1.3" ->
// {1, 3}; nullopt when it is not "ssdprobe/" followed by a version.
std::optional<std::pair<int, int>> parse_schema_version(const std::string& schema);

}  // namespace ssdprobe
