// Integer arithmetic on byte ranges and units, shared by the planner, the
// analysis and the simulator so all three count boundaries the same way.
#pragma once

#include <cstdint>
#include <numeric>

namespace ssdprobe {

// Number of `unit`-sized blocks (aligned to multiples of `unit`) that the
// range [offset, offset+length) overlaps; 0 for an empty range or unit 0.
constexpr uint64_t units_touched(uint64_t offset, uint64_t length, uint64_t unit) {
  if (unit == 0 || length == 0) return 0;
  return (offset + length - 1) / unit - offset / unit + 1;
}

// Number of `unit` boundaries strictly inside the range.
constexpr uint64_t boundaries_crossed(uint64_t offset, uint64_t length, uint64_t unit) {
  const uint64_t touched = units_touched(offset, length, unit);
  return touched == 0 ? 0 : touched - 1;
}

constexpr uint64_t align_up(uint64_t value, uint64_t unit) { return (value + unit - 1) / unit * unit; }
constexpr uint64_t align_down(uint64_t value, uint64_t unit) { return value / unit * unit; }
constexpr bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

}  // namespace ssdprobe
