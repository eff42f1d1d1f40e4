// Plans a grid probe: which sizes and offsets to time and where on the
// target the IOs go. Pure arithmetic, no IO, so it is unit-tested alone.
//
// IOs land in "slots": slot k starts at a target offset whose position on
// the *disk* (target start + offset) is a multiple of slot_bytes, and
// slot_bytes is a multiple of every candidate unit. So offset j of any slot
// has the same phase against every candidate unit, wherever the slot is, and
// each IO can use a fresh slot that no cache has seen.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "device/target.h"

namespace ssdprobe {

struct GridPlanInput {
  uint64_t target_size = 0;
  uint64_t disk_start = 0;        // target's first byte on its disk (partition start)
  uint32_t logical_block = 512;
  uint32_t max_transfer = 1u << 20;
  Region region;                  // part of the target to use (length 0 = to the end)
  uint64_t window = 128 * 1024;   // largest unit searched
  uint64_t largest_size = 32 * 1024;
};

// The input for `region` of an opened target: its size and block limits as
// the engine reports them, and its start on the disk.
GridPlanInput grid_plan_input(const Target& target, const Region& region);

struct GridPlan {
  std::vector<uint64_t> sizes;
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> candidates;  // units the analysis tests
  uint64_t slot_bytes = 0;
  uint64_t first_slot = 0;           // target offset of slot 0
  uint64_t slot_count = 0;
  std::vector<std::string> notes;    // adaptations worth telling the user
  // The row a first look samples alone before the whole grid (0: none;
  // probes/grid_probe.h): read grids' two-logical-block reads, which cross
  // each candidate unit's boundaries at offsets of their own.
  uint64_t first_look_size = 0;

  uint64_t location(uint64_t slot, size_t offset_index) const {
    return first_slot + slot * slot_bytes + offsets[offset_index];
  }
};

// Read grid: sizes from one logical block to 32 KiB, offsets every logical
// block across the 128 KiB window (a crossing is visible at any phase);
// its first look is the row of two logical blocks.
// Throws Error(target) when the region is too small (naming the size needed)
// and Error(usage) when the region lies outside the target.
GridPlan plan_read_grid(const GridPlanInput& input);

// Write grid: sizes and offsets at powers of two and three-times powers of
// two up to 256 KiB: a partly covered unit L shows at offsets that are odd
// multiples of L/2, so a full sweep of phases is not needed, and full
// coverage (size = L at offset 0) is always in the grid.
GridPlan plan_write_grid(const GridPlanInput& input);

// Minimum number of slots a region must hold for IOs to be spread out.
constexpr uint64_t kMinimumSlots = 16;

}  // namespace ssdprobe
