// Internal parallelism from timing: how many IOs a drive can work on at once
// and how its address space is spread over its parallel units (channels x
// dies x planes). Two experiments feed it (probes/parallelism_probe.h):
//
//  - a queue-depth sweep: small random reads at depths 1, 2, 4 ... in
//    replicate segments; IOPS per segment. The knee is the smallest depth
//    whose mean IOPS reaches kKneeShare of the plateau (the highest mean).
//    The probe then refines the octaves around the knee with depths half an
//    octave apart (24 and 48 around 32), so a depth sitting on the 90 % line
//    moves the knee by half an octave, not by a doubling.
//  - a stride probe (after Chen, Koufaty & Zhang, HPCA 2011): pairs of
//    concurrent small reads `stride` bytes apart. Two reads on the same unit
//    wait for each other, so the pair takes about twice a lone read; on two
//    units they overlap (compared at their lower quartiles: kPairQuantile).
//    Interleave = the smallest stride whose pairs overlap; units = the
//    smallest multiple of it whose pairs serialize again (it wraps round to
//    the same unit).
//
// Every value has a state (found / undetermined / not_measured, as
// DetectedUnit) and a bootstrap confidence; weak evidence is "undetermined",
// never a guess. Pure: no IO, no clock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdicts.h"
#include "device/device.h"
#include "runner/engine_ceiling.h"

namespace ssdprobe {

// The knee: the smallest depth reaching this share of the plateau IOPS.
constexpr double kKneeShare = 0.90;
// The knee's resolution: a resampled knee supports the measured one when it
// lies within this factor of it. Where the sweep was refined around the
// knee the neighbouring depths are half an octave apart, and a depth whose
// IOPS sit on the 90 % line lets noise pick either neighbour; between
// powers of two (a factor 2) only the same depth agrees.
constexpr double kKneeResolution = 1.5;
// A stride serializes when its pairs take, over a lone read, more than half
// way from the fastest to the slowest stride; and that spread must be at
// least this share of a lone read, or no stride is said to serialize.
constexpr double kMinSerializationShare = 0.25;
// Support a value needs to be reported (as for the read page).
constexpr double kParallelismSupport = 0.90;
// The pair and lone-read statistic of the stride probe: their 25th
// percentile. Host delays (a CPU busy elsewhere, a scheduler tick) only
// ever add latency, and a pair is hit when either of its reads is: under
// load a third or more of the pairs are late. A median then sits in the
// delayed tail often enough that resamples flip strides and the support
// collapses (0.09-0.5 on the emulated drive) while every point estimate
// is right; the lower quartile stays among the undelayed pairs.
constexpr double kPairQuantile = 0.25;
// Segments a depth needs before its mean is resampled: fewer and the
// bootstrap has nothing to redraw.
constexpr size_t kMinDepthSegments = 3;

// The first round of the sweep stops climbing once none of the last
// kLevelDoublings depths beat the best depth below them by more than
// kLevelTolerance (probes/parallelism_plan.h, sweep_levelled_off).
constexpr size_t kLevelDoublings = 3;
constexpr double kLevelTolerance = 0.05;

// The sweep has settled, and its rounds stop timing depths, once the knee
// and the plateau each reach this bootstrap support (stricter than
// kParallelismSupport: deciding to stop on a lucky round would otherwise
// report a weaker value than the rounds' count promises), judged on
// kSettleReplicates resamples.
constexpr double kSettledSupport = 0.95;
constexpr int kSettleReplicates = 200;

struct DepthSegment {
  uint32_t queue_depth = 1;
  double iops = 0.0;               // steady-state completions per second of this segment
  std::vector<double> latency_us;  // its IOs' latencies
  // The process's CPU time over the host's wall time while the segment ran
  // (1.0: one CPU kept busy); none where the clock is not the host's (a
  // simulated drive's is virtual).
  std::optional<double> host_busy;
  // The share of that wall time the submitting thread waited for a CPU
  // while it had work (other work held the cores); none where not counted.
  std::optional<double> host_waited;
};

struct DepthSummary {
  uint32_t queue_depth = 1;
  std::vector<double> segment_iops;  // one per replicate segment
  double iops = 0.0;                 // their mean
  double p50_us = 0.0, p99_us = 0.0; // over every IO of the depth
  uint64_t ios = 0;
  std::optional<double> host_busy;   // median over the segments that measured it
  std::optional<double> host_waited; // likewise
};

// Pairs at one stride: each entry the pair's time (the later completion's
// latency; both were submitted together).
struct StrideSample {
  uint64_t stride_bytes = 0;
  std::vector<double> pair_us;
};

struct StrideSummary {
  uint64_t stride_bytes = 0;
  uint64_t pairs = 0;
  double pair_p50_us = 0.0;
  double excess = 0.0;      // median pair time / median lone read - 1 (shown, not judged)
  double pair_p25_us = 0.0;
  double excess_p25 = 0.0;  // the same at kPairQuantile: what `serialized` is judged on
  bool serialized = false;
};

struct ParallelismData {
  IoOp op = IoOp::read;                       // what was timed: reads, or (with --write, in its window) writes
  uint32_t read_bytes = 4096;                 // size of every IO
  uint32_t largest_depth_allowed = 1;        // the engine's limit
  bool first_round_cut = false;               // --budget ran out inside the first round (some depths, and the
                                              // stride pairs, never ran)
  // The depth where the first round stopped climbing because IOPS had
  // levelled off (probes/parallelism_plan.h, sweep_levelled_off); none when
  // it reached the deepest depth the engine allows.
  std::optional<uint32_t> levelled_off_at;
  std::vector<DepthSegment> segments;         // in the order run
  std::vector<double> single_us;              // lone reads, the stride reference
  std::vector<StrideSample> strides;          // powers of two, ascending
  std::vector<StrideSample> multiples;        // multiples of the interleave, ascending (may be empty)
  std::optional<uint64_t> smallest_known_interleave;  // the read page: a page lives on one unit
};

struct ParallelismValue {
  std::optional<double> value;
  UnitState state = UnitState::not_measured;
  double confidence = 0.0;
  std::string evidence;
  std::optional<double> low, high;  // 95 % bootstrap interval (plateau IOPS, knee depth)
};

// The busiest depth timed again with its requests spread over one ring per
// core (probes/more_rings_probe.h), against one ring timed alternately with
// it: when more of the host serves more IOPS, one core was the limit.
struct MoreRingsCheck {
  bool timed = false;
  std::string not_timed_because;  // when not timed: why
  uint32_t rings = 0;             // submitting threads, each on a core of its own
  uint32_t queue_depth = 0;       // in flight over all the rings together
  int rounds = 0;                 // one-ring and many-ring segments each
  double one_ring_iops = 0.0;     // medians over the rounds
  double iops = 0.0;
  double gain = 0.0;              // iops / one_ring_iops - 1
};

// Whose plateau the sweep's busiest depth is (analysis/host_bound.h): the
// engine's ceiling and the process's busy share there make it suspect, and
// more rings decide.
struct HostBoundCheck {
  EngineCeiling ceiling;
  double plateau_share = 0.0;      // the busiest depth's mean IOPS over the ceiling's
  std::optional<double> host_busy; // the busiest depth's (DepthSummary::host_busy)
  std::optional<double> host_waited; // the busiest depth's (DepthSummary::host_waited)
  bool suspected = false;          // plateau_share, host_busy or host_waited reached its line
  MoreRingsCheck more_rings;       // timed only when suspected
  bool host_bound = false;         // the knee and plateau were withdrawn as the host's
};

struct ParallelismVerdict {
  IoOp op = IoOp::read;               // as ParallelismData::op
  ParallelismValue queue_depth_knee;  // IOs in flight
  ParallelismValue plateau_iops;      // IO/s of read_bytes random reads
  ParallelismValue parallel_units;    // count
  ParallelismValue interleave_bytes;  // bytes
  std::vector<DepthSummary> depths;   // ascending
  std::optional<uint32_t> levelled_off_at;  // as ParallelismData's
  std::optional<HostBoundCheck> host_check;  // none where no ceiling was measured (sims, psync)
  double single_p50_us = 0.0;
  double single_p25_us = 0.0;         // the reference of excess_p25
  std::vector<StrideSummary> strides, multiples;
};

// Mean IOPS per depth (ascending), for the sweep table.
std::vector<DepthSummary> summarize_depths(const std::vector<DepthSegment>& segments);

// The knee of the mean IOPS alone (no bootstrap), used by the probe to
// choose where to refine the sweep: nothing when IOPS still rise at the
// deepest depth, or fewer than two depths were run.
std::optional<uint32_t> point_knee(const std::vector<DepthSegment>& segments);

// Whether the segments so far settle the knee and the plateau (found, each
// with support >= kSettledSupport): the probe then stops timing depths and
// spends its remaining rounds on stride pairs.
bool knee_settled(const std::vector<DepthSegment>& segments, uint64_t seed);

// The stride classification alone (used between the two stride phases to
// choose the multiples): the interleave, when the powers-of-two strides
// show one with full bootstrap-free point estimates.
std::optional<uint64_t> point_interleave(const std::vector<double>& single_us, const std::vector<StrideSample>& strides,
                                         std::optional<uint64_t> smallest_known_interleave);

ParallelismVerdict analyse_parallelism(const ParallelismData& data, uint64_t seed, int replicates = 400);

// "use >= 16 outstanding IOs (queue depth knee ...); stripe at 64 KiB ...":
// what a user should do with a found verdict; empty when nothing was found.
std::vector<std::string> parallelism_advice(const ParallelismVerdict& verdict);

// Not measured, with the reason (engine without queueing, info, audit).
ParallelismVerdict parallelism_not_measured(const std::string& why, IoOp op = IoOp::read);

// "read" or "write": the evidence and advice name what was timed.
const char* io_noun(IoOp op);

}  // namespace ssdprobe
