#include "probes/parallelism_plan.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/block_math.h"
#include "core/error.h"

namespace ssdprobe {
namespace {

// The region's end (target offset). Throws Error(usage) when the region lies
// outside the target.
uint64_t checked_region_end(const ParallelismPlanInput& input) {
  if (input.region.offset >= input.target_size ||
      (input.region.length != 0 && input.region.offset + input.region.length > input.target_size)) {
    throw Error(ErrorCategory::usage, fmt::format("region {}+{} lies outside the target ({} bytes)",
                                                  input.region.offset, input.region.length, input.target_size));
  }
  return input.region.length == 0 ? input.target_size : input.region.offset + input.region.length;
}

// The queue depths of the sweep and their segment lengths.
void plan_depths(ParallelismPlan& plan, const ParallelismPlanInput& input) {
  for (uint32_t d = 1; d <= std::min(kLargestDepth, std::max<uint32_t>(1, input.max_queue_depth)); d *= 2) {
    plan.depths.push_back(d);
    plan.segment_ios.push_back(segment_ios_at(d));
  }
  if (input.max_queue_depth < kLargestDepth && input.max_queue_depth > 1) {
    plan.notes.push_back(fmt::format("queue depth sweep stops at {}: the engine accepts no more IOs at once",
                                     plan.depths.back()));
  }
}

// The read_bytes-aligned slots of the random reads. Throws Error(target)
// when the region holds too few.
void plan_read_slots(ParallelismPlan& plan, const ParallelismPlanInput& input) {
  const uint64_t first_on_disk = align_up(input.disk_start + input.region.offset, plan.read_bytes);
  plan.first_read = first_on_disk - input.disk_start;
  plan.read_slots =
      plan.first_read + plan.read_bytes <= plan.region_end ? (plan.region_end - plan.first_read) / plan.read_bytes : 0;
  if (plan.read_slots < kMinSegmentIos * 4) {
    throw Error(ErrorCategory::target, fmt::format("the region is too small for the parallelism probe: it needs at "
                                                   "least {}", format_size(kMinSegmentIos * 4 * plan.read_bytes)));
  }
}

// The strides of the stride probe and the bases of its pairs; none, with a
// note, when the region is too small for them.
void plan_strides(ParallelismPlan& plan, const ParallelismPlanInput& input) {
  // Strides from the read page (two reads inside one page share it, whatever
  // the unit layout) or, unmeasured, from the read size; doubling up to
  // 4 MiB, or an eighth of the region when that is smaller.
  const uint64_t usable = plan.region_end - plan.first_read;
  const uint64_t smallest = input.read_page && *input.read_page >= plan.read_bytes ? *input.read_page : plan.read_bytes;
  plan.smallest_stride_is_page = input.read_page && *input.read_page >= plan.read_bytes;
  for (uint64_t s = smallest; s <= kLargestStride && s <= usable / 8; s *= 2) plan.strides.push_back(s);
  if (plan.strides.size() < 3) {
    plan.notes.push_back("the region is too small for the stride probe: parallel units and interleave not measured");
    plan.strides.clear();
    return;
  }
  plan.base_alignment = plan.strides.back();
  plan.largest_pair_stride = std::min(kLargestPairStride, usable / 2);
  const uint64_t base_on_disk = align_up(input.disk_start + input.region.offset, plan.base_alignment);
  plan.first_base = base_on_disk - input.disk_start;
  const uint64_t base_end = plan.first_base + plan.largest_pair_stride + plan.read_bytes;
  plan.base_count = base_end <= plan.region_end ? (plan.region_end - base_end) / plan.base_alignment + 1 : 0;
  if (plan.base_count == 0) {
    plan.notes.push_back("the region is too small for the stride probe: parallel units and interleave not measured");
    plan.strides.clear();
  }
}

}  // namespace

ParallelismPlan plan_parallelism(const ParallelismPlanInput& input) {
  ParallelismPlan plan;
  plan.region_end = checked_region_end(input);
  plan.region_begin = input.region.offset;
  // Small random reads, as IOPS are usually quoted: 4 KiB, or one logical
  // block where that is larger.
  plan.read_bytes = std::max<uint32_t>(4096, input.logical_block);
  plan_depths(plan, input);
  plan_read_slots(plan, input);
  plan_strides(plan, input);
  return plan;
}

uint64_t segment_ios_at(uint32_t depth) {
  return std::max<uint64_t>(kMinSegmentIos, uint64_t{kSegmentDepthMultiple} * depth);
}

bool sweep_levelled_off(std::span<const double> iops) {
  if (iops.size() <= kLevelDoublings) return false;
  const auto last = iops.end() - kLevelDoublings;
  const double limit = *std::max_element(iops.begin(), last) * (1.0 + kLevelTolerance);
  return std::all_of(last, iops.end(), [limit](double x) { return x < limit; });
}

std::vector<uint32_t> knee_refinement(const ParallelismPlan& plan, uint32_t knee) {
  std::vector<uint32_t> out;
  const auto at = std::find(plan.depths.begin(), plan.depths.end(), knee);
  if (at == plan.depths.end() || at == plan.depths.begin() || at + 1 == plan.depths.end()) return out;
  // Three halves of a power of two is whole from 2 up (2 -> 3), and lies
  // strictly between it and the next power of two in the sweep.
  for (const uint32_t from : {*(at - 1), knee}) {
    if (from >= 2) out.push_back(from / 2 * 3);
  }
  return out;
}

std::vector<uint64_t> interleave_multiples(const ParallelismPlan& plan, uint64_t interleave) {
  std::vector<uint64_t> strides;
  for (uint64_t m = 2; m <= kMostMultiples && m * interleave <= plan.largest_pair_stride; ++m) {
    strides.push_back(m * interleave);
  }
  return strides;
}

double steady_iops(std::vector<uint64_t> finished_ns, uint32_t depth) {
  if (finished_ns.size() < 2) return 0.0;
  std::sort(finished_ns.begin(), finished_ns.end());
  const size_t n = finished_ns.size();
  const size_t head = std::max<size_t>(depth, n / 4);
  if (n <= head + depth + 1) {
    const double span = static_cast<double>(finished_ns.back() - finished_ns.front());
    return span > 0 ? static_cast<double>(n - 1) / span * 1e9 : 0.0;
  }
  const double span = static_cast<double>(finished_ns[n - depth - 1] - finished_ns[head - 1]);
  return span > 0 ? static_cast<double>(n - depth - head) / span * 1e9 : 0.0;
}

}  // namespace ssdprobe
