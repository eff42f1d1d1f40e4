#include "probes/grid_plan.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "analysis/unit_inference.h"
#include "core/block_math.h"
#include "core/error.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kWriteWindow = 256 * 1024;

// Powers of two from `from` (and 3 x powers of two from 12 KiB) up to `to`,
// keeping only multiples of `multiple_of`.
std::vector<uint64_t> geometric_sizes(uint64_t from, uint64_t to, uint64_t multiple_of, bool with_threes) {
  std::vector<uint64_t> values;
  for (uint64_t v = from; v <= to; v *= 2) values.push_back(v);
  if (with_threes) {
    for (uint64_t v = 12288; v <= to; v *= 2) {
      if (v >= from && v % multiple_of == 0) values.push_back(v);
    }
  }
  std::sort(values.begin(), values.end());
  return values;
}

void check_input(const GridPlanInput& input) {
  if (input.logical_block == 0 || !is_power_of_two(input.logical_block)) {
    throw Error(ErrorCategory::target, fmt::format("logical block size {} is not a power of two", input.logical_block));
  }
}

void cap_sizes(GridPlan& plan, const GridPlanInput& input, uint64_t wanted_largest) {
  const uint64_t largest = std::min<uint64_t>(wanted_largest, input.max_transfer);
  std::erase_if(plan.sizes, [&](uint64_t s) { return s > largest; });
  if (plan.sizes.empty()) {
    throw Error(ErrorCategory::unsupported, "the device's largest transfer is smaller than one logical block");
  }
  if (input.logical_block > 512) {
    plan.notes.push_back(fmt::format("{} logical blocks: no request smaller than {} or off a {} boundary is issued",
                                     format_size(input.logical_block), format_size(input.logical_block),
                                     format_size(input.logical_block)));
  }
  if (largest < wanted_largest) {
    plan.notes.push_back(fmt::format("request sizes capped at {} (the device's largest transfer)", format_size(largest)));
  }
}

// Chooses slot size and position inside the region.
void place_slots(GridPlan& plan, const GridPlanInput& input) {
  uint64_t slot = input.logical_block;
  for (uint64_t unit : plan.candidates) slot = std::lcm(slot, unit);
  plan.slot_bytes = align_up(plan.offsets.back() + plan.sizes.back(), slot);

  if (input.region.offset >= input.target_size) {
    throw Error(ErrorCategory::usage, fmt::format("region offset {} is beyond the end of the target ({})",
                                                  input.region.offset, format_size(input.target_size)));
  }
  if (input.region.length != 0 && input.region.offset + input.region.length > input.target_size) {
    throw Error(ErrorCategory::usage, fmt::format("region {}+{} runs past the end of the target ({} bytes)",
                                                  input.region.offset, input.region.length, input.target_size));
  }
  const uint64_t region_end = input.region.length == 0 ? input.target_size : input.region.offset + input.region.length;
  const uint64_t first_on_disk = align_up(input.disk_start + input.region.offset, plan.slot_bytes);
  plan.first_slot = first_on_disk - input.disk_start;
  plan.slot_count = plan.first_slot < region_end ? (region_end - plan.first_slot) / plan.slot_bytes : 0;
  if (plan.slot_count < kMinimumSlots) {
    throw Error(ErrorCategory::target,
                fmt::format("the target{} is too small for the grid: it needs at least {} ({} slots of {}), it has {}",
                            input.region.offset || input.region.length ? " region" : "",
                            format_size(kMinimumSlots * plan.slot_bytes + plan.slot_bytes), kMinimumSlots,
                            format_size(plan.slot_bytes), format_size(region_end - input.region.offset)));
  }
}

}  // namespace

GridPlan plan_read_grid(const GridPlanInput& input) {
  check_input(input);
  GridPlan plan;
  plan.sizes = geometric_sizes(input.logical_block, input.largest_size, input.logical_block, false);
  cap_sizes(plan, input, input.largest_size);
  for (uint64_t offset = 0; offset < input.window; offset += input.logical_block) plan.offsets.push_back(offset);
  plan.candidates = default_unit_candidates(input.logical_block, input.window);
  if (plan.sizes.size() > 1) plan.first_look_size = plan.sizes[1];
  place_slots(plan, input);
  return plan;
}

GridPlan plan_write_grid(const GridPlanInput& input) {
  check_input(input);
  GridPlan plan;
  plan.sizes = geometric_sizes(input.logical_block, kWriteWindow, input.logical_block, true);
  cap_sizes(plan, input, kWriteWindow);
  plan.offsets = geometric_sizes(input.logical_block, kWriteWindow / 2, input.logical_block, true);
  plan.offsets.insert(plan.offsets.begin(), 0);
  plan.candidates = default_unit_candidates(input.logical_block, kWriteWindow);
  place_slots(plan, input);
  return plan;
}

GridPlanInput grid_plan_input(const Target& target, const Region& region) {
  const DeviceLimits& limits = target.device->limits();
  GridPlanInput input;
  input.target_size = limits.size_bytes;
  input.disk_start = target.topology.partition_start_bytes;
  input.logical_block = limits.logical_block;
  input.max_transfer = limits.max_transfer;
  input.region = region;
  return input;
}

}  // namespace ssdprobe
