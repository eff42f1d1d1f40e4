// Plans the parallelism probe (probes/parallelism_probe.h): queue depths and
// segment lengths of the sweep, where its random reads go, and the strides
// and pair bases of the stride probe. Pure arithmetic, no IO.
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
  std::vector<std::string> notes;

  uint64_t read_at(uint64_t slot) const { return first_read + slot * read_bytes; }
  uint64_t base_at(uint64_t index) const { return first_base + index * base_alignment; }
  bool strides_possible() const { return !strides.empty() && base_count > 0; }
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

// The strides of the second stride phase: 2, 3 ... up to 64 times the
// interleave, kept below largest_pair_stride.
std::vector<uint64_t> interleave_multiples(const ParallelismPlan& plan, uint64_t interleave);

}  // namespace ssdprobe
