// The write grid as a --write run plans it, run straight on a device (no
// run around it): for tests of the write-unit and stripe inference.
#pragma once

#include <cstdint>

#include "analysis/unit_inference.h"
#include "device/device.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"

namespace ssdprobe {

inline GridProbeResult sim_write_grid(Device& device, const Region& window, uint64_t seed) {
  GridPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.logical_block = device.limits().logical_block;
  in.region = window;
  const GridPlan plan = plan_write_grid(in);
  GridProbeOptions options;
  options.op = IoOp::write;
  options.analysis = write_unit_options(plan.candidates, seed);
  options.seed = seed;
  return run_grid_probe(device, plan, options);
}

}  // namespace ssdprobe
