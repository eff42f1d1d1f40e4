#include "probe/grid_plan.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "analysis/unit_inference.h"
#include "core/block_math.h"
#include "core/error.h"

namespace ssdprobe {
namespace {

std::vector<uint64_t> plan_sizes(const GridPlanInput& input, std::vector<std::string>& notes) {
  std::vector<uint64_t> sizes;
  const uint64_t largest = std::min<uint64_t>(input.largest_size, input.max_transfer);
  for (uint64_t size = input.logical_block; size <= largest; size *= 2) sizes.push_back(size);
  if (input.logical_block > 512) {
    notes.push_back(fmt::format("{} logical blocks: no request smaller than {} or off a {} boundary is issued",
                                format_size(input.logical_block), format_size(input.logical_block),
                                format_size(input.logical_block)));
  }
  if (largest < input.largest_size) {
    notes.push_back(fmt::format("request sizes capped at {} (the device's largest transfer)", format_size(largest)));
  }
  return sizes;
}

uint64_t slot_size_for(const std::vector<uint64_t>& candidates, uint64_t span, uint32_t logical_block) {
  uint64_t slot = logical_block;
  for (uint64_t unit : candidates) slot = std::lcm(slot, unit);
  return align_up(span, slot);
}

}  // namespace

GridPlan plan_read_grid(const GridPlanInput& input) {
  GridPlan plan;
  if (input.logical_block == 0 || !is_power_of_two(input.logical_block)) {
    throw Error(ErrorCategory::target, fmt::format("logical block size {} is not a power of two", input.logical_block));
  }
  plan.sizes = plan_sizes(input, plan.notes);
  if (plan.sizes.empty()) {
    throw Error(ErrorCategory::unsupported, "the device's largest transfer is smaller than one logical block");
  }
  for (uint64_t offset = 0; offset < input.window; offset += input.logical_block) plan.offsets.push_back(offset);
  plan.candidates = default_unit_candidates(input.logical_block, input.window);
  plan.slot_bytes = slot_size_for(plan.candidates, input.window + plan.sizes.back(), input.logical_block);

  if (input.region.offset >= input.target_size) {
    throw Error(ErrorCategory::usage, fmt::format("region offset {} is beyond the end of the target ({})",
                                                  input.region.offset, format_size(input.target_size)));
  }
  const uint64_t region_end = input.region.length == 0 ? input.target_size
                                                       : std::min(input.target_size, input.region.offset + input.region.length);
  if (input.region.length != 0 && input.region.offset + input.region.length > input.target_size) {
    throw Error(ErrorCategory::usage, fmt::format("region {}+{} runs past the end of the target ({} bytes)",
                                                  input.region.offset, input.region.length, input.target_size));
  }
  const uint64_t first_on_disk = align_up(input.disk_start + input.region.offset, plan.slot_bytes);
  plan.first_slot = first_on_disk - input.disk_start;
  plan.slot_count = plan.first_slot < region_end ? (region_end - plan.first_slot) / plan.slot_bytes : 0;
  if (plan.slot_count < kMinimumSlots) {
    throw Error(ErrorCategory::target,
                fmt::format("the target{} is too small for the read grid: it needs at least {} ({} slots of {}), "
                            "it has {}",
                            input.region.offset || input.region.length ? " region" : "",
                            format_size(kMinimumSlots * plan.slot_bytes + plan.slot_bytes), kMinimumSlots,
                            format_size(plan.slot_bytes), format_size(region_end - input.region.offset)));
  }
  return plan;
}

}  // namespace ssdprobe
