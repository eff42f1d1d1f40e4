// The read probe as the command line runs it, for tests: a read grid planned
// for the device's size and logical block, read-page candidates and the
// probe's default options, with the seed, budget and queue depth a test
// chooses. `adjust`, when given, may change any option before the probe runs.
// And the count of a grid row's samples, which tests of the probe check.
#pragma once

#include <functional>

#include "device/device.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"

namespace ssdprobe::test {

inline GridProbeResult read_probe(Device& device, uint64_t seed, double budget_s = 60.0, uint32_t queue_depth = 1,
                                  const std::function<void(GridProbeOptions&)>& adjust = {}) {
  GridPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.logical_block = device.limits().logical_block;
  const GridPlan plan = plan_read_grid(in);
  GridProbeOptions options;
  options.analysis = read_page_options(plan.candidates, seed);
  options.seed = seed;
  options.budget_s = budget_s;
  options.queue_depth = queue_depth;
  if (adjust) adjust(options);
  return run_grid_probe(device, plan, options);
}

// The timed IOs in the grid's row of request size `size` (0 if no such row).
inline uint64_t row_samples(const LatencyGrid& grid, uint64_t size) {
  uint64_t total = 0;
  for (size_t row = 0; row < grid.sizes.size(); ++row) {
    if (grid.sizes[row] != size) continue;
    for (size_t column = 0; column < grid.offsets.size(); ++column) total += grid.cell(row, column).size();
  }
  return total;
}

}  // namespace ssdprobe::test
