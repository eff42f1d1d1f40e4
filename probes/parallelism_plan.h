// Plans the parallelism probe (probes/parallelism_probe.h): queue depths and
// segment lengths of the sweep (and of its refinement around the knee),
// where its random reads go, and the strides and pair bases of the stride
// probe. Pure arithmetic, no IO.
//
// Random reads land on read_bytes-aligned disk positions anywhere in the
// region. A stride pair reads at base and base + stride, where every base is
// a multiple (on the disk) of the largest power-of-two stride, so a pair's
// two addresses have the same phase against every interleave the strides
// can show, wherever the base is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <span>

#include "analysis/parallelism.h"
#include "core/units.h"

namespace ssdprobe {

struct ParallelismPlanInput {
  uint64_t target_size = 0;
  uint64_t disk_start = 0;             // target's first byte on its disk
  uint32_t logical_block = 512;
  uint32_t max_queue_depth = 1;        // the engine's limit
  Region region;                       // length 0 = to the end
  std::optional<uint64_t> read_page;   // measured: the smallest stride (a page lives on one unit)
};

struct ParallelismPlan {
  uint32_t read_bytes = 4096;
  std::vector<uint32_t> depths;        // 1, 2, 4 ... up to 256 or the engine's limit
  std::vector<uint64_t> segment_ios;   // IOs per replicate segment, per depth
  uint64_t first_read = 0;             // target offset of random-read slot 0
  uint64_t read_slots = 0;
  std::vector<uint64_t> strides;       // ascending, each twice the one before
  bool smallest_stride_is_page = false;
  uint64_t base_alignment = 0;         // pair bases: multiples of this on the disk
  uint64_t first_base = 0;             // target offset of base 0
  uint64_t base_count = 0;
  uint64_t largest_pair_stride = 0;    // multiples of the interleave stay below this
  uint64_t region_begin = 0, region_end = 0;  // target offsets: every IO lies inside (writes: the journaled window)
  std::vector<std::string> notes;

  uint64_t read_at(uint64_t slot) const { return first_read + slot * read_bytes; }
  uint64_t base_at(uint64_t index) const { return first_base + index * base_alignment; }
  bool strides_possible() const { return !strides.empty() && base_count > 0; }
  bool inside(uint64_t offset, uint64_t length) const { return offset >= region_begin && offset + length <= region_end; }
};

// Segment length: at least 256 IOs and 32 x the depth. A queue that has
// just been filled is better spread over the units than one that has run
// for a while (busy units collect a backlog), so the first quarter of a
// segment's completions, and its last `depth` (the queue draining), are
// left out of its IOPS.
constexpr uint64_t kMinSegmentIos = 256;
constexpr uint32_t kSegmentDepthMultiple = 32;
constexpr uint32_t kLargestDepth = 256;
// The stride probe's largest power-of-two stride, and the farthest a pair
// at a multiple of the interleave may reach.
constexpr uint64_t kLargestStride = 4ull << 20;
constexpr uint64_t kLargestPairStride = 16ull << 20;
constexpr uint32_t kMostMultiples = 64;

// Throws Error(usage) when the region lies outside the target and
// Error(target) when it cannot hold a few hundred random reads.
ParallelismPlan plan_parallelism(const ParallelismPlanInput& input);

// The first round climbs the depths in ascending order and stops where IOPS
// have levelled off: when none of the last kLevelDoublings depths beats the
// best depth below them by more than kLevelTolerance. That depth then
// reaches 95 % of every depth timed, so the knee (90 %) lies at or below
// it, and deeper queues would only cost time: on a drive that serves one
// request at a time, depths 16 to 256 were 90 % of the probe's IOs. Three
// single segments must agree, so a noisy drive's one slow segment cannot
// stop a climb that is still rising (the sims' noisy-16k did, with two).
// `iops` holds the first round's segments, one per power-of-two depth from
// 1, ascending. Assumes IOPS do not rise again deeper, as a drive's do not
// (a deeper queue cannot slow the units a shallower one kept busy). The
// constants sit in analysis/parallelism.h, whose evidence names them.
bool sweep_levelled_off(std::span<const double> iops);

// IOs of one replicate segment at `depth`.
uint64_t segment_ios_at(uint32_t depth);

// Completions per second of a segment in the queue's steady state, from its
// IOs' completion stamps (any order): the first quarter of the completions
// (at least `depth`: the queue filling and settling) and the last `depth`
// (the queue draining) are left out.
double steady_iops(std::vector<uint64_t> finished_ns, uint32_t depth);

// The refinement of the sweep around the knee the powers of two showed
// (`knee`, one of plan.depths, not the deepest): 1.5 x the depth below it
// and 1.5 x the knee itself (24 and 48 around 32), where those are whole
// depths the engine allows. With them the depths around the knee are half an
// octave apart: when the 90 % line falls between 16 and 32 or between 32
// and 64, the knee is then 24, 32 or 48 instead of flipping between 32 and
// 64 (analysis/parallelism.h, kKneeResolution). Ascending; empty for a
// knee at depth 1 (nothing below it, and 1.5 is no depth).
std::vector<uint32_t> knee_refinement(const ParallelismPlan& plan, uint32_t knee);

// The strides of the second stride phase: 2, 3 ... up to 64 times the
// interleave, kept below largest_pair_stride.
std::vector<uint64_t> interleave_multiples(const ParallelismPlan& plan, uint64_t interleave);

}  // namespace ssdprobe
