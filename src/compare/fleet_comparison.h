// A fleet's documents grouped by model + firmware + capacity, and per group
// how far the runs agree: reported geometry, detected units, mismatches,
// recommended alignment, and the spread of key latency cells across runs
// (docs/compare.md says what each number is).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compare/document_summary.h"

namespace ssdprobe {

// How many documents gave each value of one size field (nullopt: the
// document has null there, e.g. not reported).
struct SizeTally {
  struct Entry {
    std::optional<uint64_t> bytes;
    uint32_t count = 0;
  };
  std::vector<Entry> entries;  // most frequent first; ties: smaller value first, null last
  uint32_t total = 0;

  void add(std::optional<uint64_t> bytes);
  void finish();  // sorts entries; call once all values are added
  const Entry* top() const { return entries.empty() ? nullptr : &entries.front(); }
};

// The agreement rule (docs/compare.md): a unit is agreed when at least
// kAgreementPercent % of the runs that measured it found the same size (runs
// that measured it but found no size count against it).
constexpr uint32_t kAgreementPercent = 80;
// The quirk table asks for this many runs that measured the unit, too.
constexpr uint32_t kQuirkMinRuns = 3;

// One detected unit over a group's timed runs.
struct UnitAgreement {
  SizeTally found;             // sizes of the runs whose state is found
  uint32_t ruled_out = 0;      // measured, and no unit up to what the probe could see (state absent)
  // How far each run that ruled it out could see (searched_up_to_bytes;
  // null: the document does not say).
  SizeTally ruled_out_up_to;
  uint32_t not_determined = 0; // measured, neither found nor ruled out (undetermined, or an unknown state)
  uint32_t not_measured = 0;   // no probe ran for it (write unit and erase block without --write)
  uint32_t runs = 0;           // timed runs of the group

  uint32_t measured() const { return runs - not_measured; }
  // The most frequent found size and how many runs found it.
  std::optional<uint64_t> top_bytes() const;
  uint32_t top_count() const;
  // The top size when it meets the agreement rule (and min_runs measured it).
  std::optional<uint64_t> agreed(uint32_t min_runs = 1) const;
  // The size up to which every run that ruled it out saw none (the smallest
  // reach); nullopt when none ruled it out or one did not say how far.
  std::optional<uint64_t> ruled_out_reach() const;

  void add(const UnitReading& reading);
};

// A latency cell's spread over runs: the median, 10th and 90th percentile of
// the runs' cell medians (linear interpolation), and how many runs had it.
struct LatencySpread {
  uint32_t runs = 0;
  double median_us = 0.0, p10_us = 0.0, p90_us = 0.0;
};
LatencySpread latency_spread(std::vector<double> values);  // NaNs are left out

struct KeyCell {
  std::string key;          // read_aligned, read_straddle, write_sub_unit, write_unit
  std::string grid;         // read or write
  uint64_t size = 0, offset = 0;
  std::string description;  // "4 KiB read at offset 14 KiB (across the 16 KiB read page boundary)"
  LatencySpread spread;
};

// How a group's documents were put together: by model (+ firmware +
// capacity), or, for drives that report no model (virtio disks, loop
// devices), by the drive's own identity so that unrelated disks of the same
// size are never one group: its serial, else its WWID, else host and path.
enum class GroupedBy { model, serial, wwid, path };
const char* grouped_by_name(GroupedBy by);  // "model", "serial", "wwid", "path"

struct FleetGroup {
  std::string model, firmware;
  uint64_t size_bytes = 0;
  GroupedBy grouped_by = GroupedBy::model;
  // Without a model: the serial, the WWID, or "HOST:PATH" (just PATH when
  // the document has no hostname). Empty when grouped by model.
  std::string identity;
  uint32_t documents = 0, timed_runs = 0, info_documents = 0;
  // The timed runs that stopped early (a signal, or an error that left
  // phases not run): (file, how it stopped), in document order. They count
  // like any run (what did not finish is not_measured in them), and every
  // rendering marks them.
  std::vector<std::pair<std::string, std::string>> partial_runs;
  // Distinct drives: by serial, else WWID, else host and path; a document
  // with none of these counts as a drive of its own.
  uint32_t drives = 0;
  int newest_schema_minor = 0;
  SizeTally logical_block, physical_block, minimum_io, optimal_io;
  std::vector<std::pair<std::string, SizeTally>> firmware_geometry;  // by name, in first-seen order
  UnitAgreement read_page, write_unit, erase_block;
  std::vector<std::pair<std::string, uint32_t>> mismatches;  // field -> documents with it; most first
  SizeTally partition_alignment;  // over timed runs (an info document recommends 1 MiB without measuring)
  std::vector<KeyCell> key_cells;
  // The document drawn as the group's heatmap: a timed run with a read grid,
  // a complete one while the group has one (a partial run only when every
  // run is partial), whose read page is the agreed one (any when none is
  // agreed) and whose aligned key cell is nearest the group's median. Empty
  // when no timed run of the group has a read grid.
  std::string representative;
  bool representative_partial = false;  // the representative stopped early (every run did)

  uint32_t partial_count() const { return static_cast<uint32_t>(partial_runs.size()); }
  // Timed runs all of which stopped early: the group has no complete run.
  bool only_partial() const { return timed_runs > 0 && partial_count() == timed_runs; }
};

// What a comparison covers and when it was made, for the header of every
// rendering: a fleet report read weeks later must say which runs it holds.
struct FleetCoverage {
  std::string made_at;      // when the comparison was made (UTC, ISO 8601): set by the caller
  std::string compared_by;  // the comparing ssdprobe's version: set by the caller
  // tool.version of the documents -> how many documents; most first, ties
  // by version text ("" for a document without one).
  std::vector<std::pair<std::string, uint32_t>> versions;
  std::vector<std::string> hosts;  // distinct hostnames, sorted
  uint32_t without_hostname = 0;   // documents whose hostname is null
  uint32_t timed_runs = 0, info_documents = 0;
  uint32_t partial_runs = 0;  // timed runs that stopped early
  // The earliest and latest started_at over all documents ("" when none has one).
  std::string first_started_at, last_started_at;
};

struct FleetComparison {
  std::vector<FleetGroup> groups;  // by model, firmware, capacity (no-model groups: then by identity)
  uint32_t documents = 0;          // documents compared
  std::vector<std::string> skipped;  // why each unusable file was left out (set by the caller)
  FleetCoverage coverage;
};

// The grouping key: documents with the same model, firmware and capacity
// are one group; without a model, also the same drive identity (FleetGroup::
// identity), so model-less disks that merely have the same size stay apart.
struct GroupKey {
  std::string model, firmware;
  uint64_t size_bytes = 0;
  GroupedBy grouped_by = GroupedBy::model;
  std::string identity;
  auto operator<=>(const GroupKey&) const = default;
};
GroupKey group_key(const DocumentSummary& document);

// Versions, hosts and dates of the documents (made_at and compared_by are
// left for the caller, which knows the clock and its own version).
FleetCoverage fleet_coverage(const std::vector<DocumentSummary>& documents);

FleetComparison compare_fleet(const std::vector<DocumentSummary>& documents);

}  // namespace ssdprobe
