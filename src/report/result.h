// The result of a run, as data: what docs/result-json.md calls the
// result document, before it is written as JSON (json_report) or text
// (text_report). Analysis fills `detected`, `mismatches`, `recommendations`;
// the command layer fills the rest.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/latency_grid.h"
#include "analysis/open_units.h"
#include "analysis/verdicts.h"
#include "analysis/write_stalls.h"
#include "core/error.h"
#include "device/io_counts.h"
#include "device/topology.h"
#include "device/zone_report.h"
#include "firmware/ata_identify.h"
#include "firmware/mmc_query.h"
#include "firmware/nvme_reported.h"
#include "firmware/scsi_pages.h"
#include "firmware/smartctl_json.h"
#include "firmware/sysfs_expectation.h"
#include "firmware/write_counters.h"
#include "layout/audit.h"
#include "layout/file_audit.h"
#include "report/option_echo.h"
#include "report/verdict.h"
#include "probes/grid_probe.h"
#include "probes/read_content_probe.h"
#include "analysis/parallelism.h"

namespace ssdprobe {

struct GridReport {
  std::string name = "read";
  std::string op = "read";
  uint32_t queue_depth = 1;
  LatencyGrid grid;                    // raw latencies, as measured
  std::vector<double> round_shift_us;  // drift removed per sampling round before analysis
  // The latencies less each round's drift, as the analysis saw them: what
  // misalignment costs are stated from (a round run while the host was busy
  // would otherwise split every cell into a slow and a fast part). Not
  // written to the document; empty when not kept.
  LatencyGrid corrected;
  FirstLook first_look;                // the row sampled alone before the grid (read grids at queue depth 1)
};

struct WriteProbeSummary {
  uint64_t offset = 0, length = 0;   // the only bytes written
  bool preserved = true;
  std::string journal;               // path while it existed
  uint64_t bytes_written = 0;
  // The most the --write question said the run would write, every phase and
  // the restore included (run/write_cap.h); phases[].writes say what each
  // phase wrote.
  uint64_t announced_bytes = 0;
  bool restored = false;             // content written back and read back identical
  // No write phase started (the run stopped before its first write, while
  // saving the window, say): there was nothing to restore. `restored` is
  // then not asked (null in the JSON).
  bool nothing_written = false;
  std::string restore_message;
  // Of the window, the bytes the restore wrote (the rest already held the
  // saved content); none when nothing was restored.
  std::optional<uint64_t> restore_bytes_written;
  GridStopReason grid_stop_reason = GridStopReason::round_limit;  // why the write grid stopped
  int grid_rounds = 0;
  // The write grid's writes that stalled far beyond its typical write
  // (analysis/write_stalls.h); none when the grid did not run.
  std::optional<WriteStalls> grid_stalls;
  uint64_t stream_chunk_bytes = 0;
  uint64_t stream_offset = 0;        // the stream's first byte: the window's first on a write unit boundary
  uint64_t streamed_bytes = 0;       // window bytes each stream pass covered (less than length when cut to --budget)
  bool stream_cut_to_budget = false; // --budget, not the window, ended the stream (more time would search further)
  std::vector<double> stream_latency_us;  // the timed sequential pass
  std::optional<WriteAmplification> write_amplification;  // from SMART counters, when the drive has them
};

// One zone a zone-safe write run wrote (run/zoned_write_phase.h).
struct ZonedWriteZone {
  uint64_t start_bytes = 0, length_bytes = 0, capacity_bytes = 0;
  uint64_t bytes_written = 0;
  uint64_t ios = 0;
  double median_us = 0.0, p99_us = 0.0;     // of this zone's writes
  uint64_t slow_ios = 0;                    // writes over 3 x the zone's median latency
  std::optional<uint64_t> stall_period_bytes;  // the erase-block analysis of the zone's stream
  double stall_confidence = 0.0;
  std::string stall_evidence;
  bool cut_to_budget = false;               // --budget, not the zone's capacity, ended it
};

// A --write run on a host-managed zoned device: which empty zones it wrote,
// what their writes cost, and whether the reset gave them back empty.
struct ZonedWriteSection {
  uint64_t zones_total = 0, zones_empty_before = 0;
  uint64_t zone_bytes = 0, zone_capacity_bytes = 0;  // of the first zone written
  std::optional<uint64_t> zone_append_max_bytes;
  std::optional<uint64_t> max_open_zones, max_active_zones;
  uint32_t chunk_bytes = 0;
  std::vector<ZonedWriteZone> zones;
  uint64_t bytes_written = 0;
  double median_us = 0.0, p99_us = 0.0;  // over every write of every zone
  std::string comparison;                // the stall period against the zone size and capacity, or why none
  bool reset_verified = false;           // each zone EMPTY with its write pointer at its start afterwards
  std::string reset_message;
};

// What the firmware itself reports (src/firmware), as decoded; nullopt where
// the target has no such interface or nothing could be read through it.
struct FirmwareSection {
  std::optional<NvmeFirmwareData> nvme;
  std::optional<AtaIdentify> ata;
  std::optional<ScsiPages> scsi;
  std::optional<SmartctlReport> smart;
  std::optional<ZoneSummary> zones;  // the zone report of a zoned target
  std::optional<MmcCardData> mmc;
  std::vector<SysfsExpectation> expectations;  // what sysfs should show, per source
  std::string identity_source;
};

// The layout already on the disk, judged against the units (layout/audit.h),
// and any start the user asked about with --at.
struct AuditSection {
  std::optional<LayoutAudit> layout;  // absent when there is nothing to read (sim:) or it failed
  std::string unavailable_reason;     // why `layout` is absent
  // What kind of failure that was (permission denied opening the disk is
  // exit 4 for `audit`, not "unusable target").
  ErrorCategory unavailable_category = ErrorCategory::target;
  std::vector<AuditLine> at;          // --at OFFSET, in the order given
  // `audit FILE|DIR` on a mounted filesystem: each file's extents; the
  // findings are `layout`'s lines then (layout/file_audit.h).
  std::optional<FileExtentsAudit> files;
};

// Where a file target's read grid ran: one stretch of the file contiguous
// on the disk, so that its file offsets are disk offsets plus one constant
// (run/file_read_region.h).
struct FileReadMapping {
  std::string device;               // the filesystem's block device
  uint64_t file_offset = 0;         // the stretch, in the file
  uint64_t disk_offset = 0;         // where file_offset lies on the whole disk
  uint64_t length = 0;
  uint64_t extents = 0;             // the file's extents, as FIEMAP listed them
};

struct RunSummary {
  std::string engine;
  uint64_t ios = 0;
  int rounds = 0;
  double device_time_s = 0.0;  // on the device's clock (virtual for sims)
  GridStopReason stop_reason = GridStopReason::round_limit;
  // The part of the target the read probes were kept to, and what chose it:
  // "option" (--region), "target" (all of it), "written_data" (a zoned
  // device's longest stretch below its write pointers); none when the read
  // probes were skipped (a zoned --write run with too little written).
  std::optional<Region> read_region;
  std::string read_region_source;
  // What the first read grid's space held, sampled after a grid that found
  // no page (probes/read_content_probe.h); none when it was not sampled.
  std::optional<ReadContent> read_content;
  std::optional<FileReadMapping> file_mapping;  // a file target's grid, mapped through its extents
};

// The parallelism probe (probes/parallelism_probe.h): its verdicts and the
// sweep it measured, as the report shows them.
struct ParallelismSection {
  ParallelismVerdict verdict;
  uint32_t read_bytes = 4096;
  int rounds = 0;
  std::vector<uint32_t> refined_depths;  // the depths added around the knee
  int refinement_rounds = 0;
  uint64_t ios = 0;
  uint64_t bytes_issued = 0;  // warm-up included (the write sweep: bytes written)
  double device_time_s = 0.0;
  double budget_s = 0.0;
  std::string failure;  // the IO error that stopped the probe, empty when none did
  std::optional<Region> window;  // the write sweep's window (writes only)
};

// How one phase of a run ended (run/pipeline.h): the document says what
// finished and what did not, also when a run was interrupted or failed.
enum class PhaseState {
  done,         // ran to its end
  budget,       // ran, and --budget ended it before it settled: its result stands on what it measured
  skipped,      // does not apply to this run (reason says why)
  failed,       // an error ended it (reason); the run went on or stopped, as the error decides
  interrupted,  // a signal ended it
  not_run,      // an earlier phase stopped the run (reason names how)
};

// The disk's counters over a phase, less what the run itself issued.
struct OtherIo {
  std::string disk;  // whose counters: the whole disk, also for a partition target ("nvme0n1")
  IoCounts own;      // what the run issued in the phase
  IoCounts other;    // the rest: what others did on the disk meanwhile
};

// What a phase that ran cost the host (run/pipeline.cc): its wall time,
// the CPU time of the whole process meanwhile, the IOs it issued and how
// the engine waited for their completions (those two absent where the run
// has no such counter).
struct PhaseHostCost {
  double wall_s = 0.0;
  double cpu_s = 0.0;
  std::optional<uint64_t> ios;
  std::optional<WaitCounts> waits;
};

struct PhaseRecord {
  std::string name;            // "read_grid", "write_grid", ... (docs/result-json.md lists them)
  PhaseState state = PhaseState::done;
  std::string reason;          // empty when done
  double device_time_s = 0.0;  // device time it spent (virtual on sims)
  std::optional<PhaseHostCost> host;  // absent for a phase that did not run
  // IO others did on the disk during a timed phase (run/other_io.h); absent
  // where it cannot be told: phases that do no timing IO, sims, files.
  std::optional<OtherIo> other_io;
  // What a phase that writes inside the window wrote, when it ran:
  // bytes_issued, the probe's own writes, counted also when the phase was
  // stopped part way; and where the drive counts writes, its host and media
  // counters' deltas over the phase (`pattern` is ""). The restore's is the
  // bytes it put back, with no counters read around it. Absent for the
  // other phases, those that did not run, and a restore that failed.
  std::optional<WritePhaseCounts> writes;
};

// Every phase's waits together: how the engine waited over the whole run
// (none where no phase counted any: engines that do not poll, sims).
inline std::optional<WaitCounts> total_waits(const std::vector<PhaseRecord>& phases) {
  std::optional<WaitCounts> all;
  for (const auto& p : phases) {
    if (!p.host || !p.host->waits) continue;
    if (!all) all = WaitCounts{};
    add_waits(*all, *p.host->waits);
  }
  return all;
}

// The SLC cache probe's measurements beside detected.slc_cache (a
// DetectedUnit: found = the bytes written before the drop).
struct CacheCurvePoint {
  uint64_t written_bytes = 0;  // bytes the fill had written at the end of this stretch
  double bytes_per_s = 0.0;    // the stretch's write speed
};
struct CacheRecovery {
  double idle_s = 0.0;                   // how long the drive idled before the second fill
  UnitState state = UnitState::undetermined;  // found: `bytes` came back; absent: none measurable
  std::optional<uint64_t> bytes;         // found: bytes written before the second drop
  std::optional<uint64_t> at_least_bytes;  // no drop within the bytes left: at least this much came back
  std::string evidence;
};
struct SlcCacheDetail {
  std::optional<double> in_cache_bytes_per_s;  // median speed before the drop (or of the whole fill)
  std::optional<double> native_bytes_per_s;    // median speed after it
  uint64_t written_bytes = 0;                  // both fills
  uint64_t cap_bytes = 0;                      // --cache-bytes, or what the drive could hold
  std::optional<uint64_t> flat_stop_bytes;     // where a fill at a flat speed ends; none: only at the cap
  std::string ended_by;                        // the first fill's end: drop, flat_speed, cap or budget
  uint64_t io_bytes = 0;                       // each write's size
  double idle_s = 0.0;                         // idle before the first fill
  std::vector<CacheCurvePoint> curve;          // the first fill
  std::optional<CacheRecovery> recovery;
  // The write grid run inside the cache after it refilled (phase
  // write_grid_in_cache), regime "slc_cache"; absent when it did not run.
  std::optional<DetectedUnit> write_unit;
  uint64_t write_unit_written_bytes = 0;  // what that grid wrote (inside the window, under --cache-bytes)
};

// detected.write_stripe's parts, and its tie to the parallelism probe
// (run/stripe_parallelism.h): whether the stripe's program units are as many
// as the parallel units the probe found.
struct WriteStripeDetail {
  std::optional<uint64_t> program_unit_bytes;  // found: the write unit the stripe is made of
  std::optional<uint32_t> units;               // found: program units per stripe
  std::optional<uint32_t> parallel_units;      // the probe's unit count: write pairs' when found, else reads'
  std::string parallel_units_from;             // "write_parallelism", "parallelism"; empty: neither found one
  std::optional<bool> agrees;                  // units == parallel_units, when both are known
};

// The open-units probe (probes/open_units_probe.h, phase open_units): how
// many interleaved write streams the drive takes before every write
// collapses into a fold, and what it wrote to tell.
struct OpenUnitsSection {
  OpenUnitsVerdict verdict;          // state not_measured until the phase ran
  std::string to_determine;          // what would tell, when not found (set with the verdict)
  uint64_t stretch_bytes = 0;        // one stream per stretch: the erase block, or the stand-in
  std::string stretch_from;          // "erase_block" or "stand_in"
  uint64_t io_bytes = 0;             // each write: the write unit, or the stand-in
  std::string io_from;               // "write_unit" or "stand_in"
  uint64_t offset = 0;               // the first stretch's first byte
  uint32_t most_streams = 0;         // stretches the window holds
  uint64_t written_bytes = 0;
  uint64_t cap_bytes = 0;
  double device_time_s = 0.0;
  std::string cut_by;                // "cap", "budget", or empty: the ladder ran to its end
  // What the firmware states a host may keep open (run/open_units_phase.h),
  // and the reported field it comes from; absent where it states nothing.
  std::optional<uint32_t> firmware_streams;
  std::string firmware_streams_field;
};

struct ResultDocument {
  std::string started_at;   // ISO 8601 UTC
  std::string ended_at;     // ISO 8601 UTC, when the last phase ended
  double duration_s = 0.0;
  std::string hostname;     // where it ran
  std::vector<std::string> command_line;  // argv as run
  OptionEcho options;
  std::string path;
  TargetKind kind = TargetKind::block;
  Topology topology;
  FirmwareSection firmware;
  DetectedUnit read_page, write_unit, erase_block;
  // The stripe beside the write unit (analysis/write_stripe.h): found where
  // cost steps once per round of program units over parallel units.
  DetectedUnit write_stripe;
  WriteStripeDetail write_stripe_detail;
  DetectedUnit slc_cache;  // found: the bytes a burst of writes gets at the cache's speed
  std::optional<SlcCacheDetail> slc_cache_detail;  // absent unless the SLC cache probe ran
  OpenUnitsSection open_units;  // state not_measured unless the open-units probe ran
  std::vector<Mismatch> mismatches;
  Recommendations recommendations;
  Verdict verdict;  // built last, from everything above it (run/verdict_builder.h)
  std::vector<GridReport> grids;
  std::optional<RunSummary> run;   // absent for `info`
  std::optional<WriteProbeSummary> write_probe;  // absent unless --write
  std::optional<ZonedWriteSection> zoned_write;  // absent unless --write on a host-managed zoned device
  std::optional<AuditSection> audit;  // absent only where no audit was asked for (restore)
  std::optional<ParallelismSection> parallelism;  // absent where no timing IO was done (info, audit)
  // The same probe with writes, inside the write window: absent unless --write.
  std::optional<ParallelismSection> write_parallelism;
  std::vector<std::string> notes;  // plan adaptations, engine fallbacks
  std::vector<PhaseRecord> phases;  // in the order they ran (or would have)

  // A block device (or partition) on a zoned device: no partition table,
  // no random writes; a zoned filesystem on the whole device.
  bool zoned_block_device() const {
    return (kind == TargetKind::block || kind == TargetKind::partition) && topology.zoned && topology.zoned->zoned();
  }

  // The phase called `name` ("write_grid"), or nullptr when it has no record.
  const PhaseRecord* phase_named(std::string_view name) const {
    for (const auto& p : phases) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }
};

}  // namespace ssdprobe
