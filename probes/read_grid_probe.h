// The read-grid probe: times O_DIRECT reads over the planned size x offset
// grid, in rounds, until the read-page analysis is settled or the budget is
// spent. Each round shuffles its reads so slow drift cannot favour one cell,
// sends every read to a fresh slot so no cache answers it, and spends half of
// its reads on the cells that cross the boundaries still in contention.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "analysis/latency_grid.h"
#include "analysis/unit_inference.h"
#include "device/device.h"
#include "probe/grid_plan.h"

namespace ssdprobe {

struct ReadProbeProgress {
  int round = 0;
  uint64_t ios = 0;
  double elapsed_s = 0.0;
  double budget_s = 0.0;
  const UnitVerdict* verdict = nullptr;
};

struct ReadProbeOptions {
  double budget_s = 60.0;             // on the device's clock (virtual for sims)
  uint32_t queue_depth = 1;
  uint64_t seed = 1;
  uint32_t initial_samples_per_cell = 3;
  uint32_t warmup_ios = 64;
  int max_rounds = 14;
  std::function<void(const ReadProbeProgress&)> progress;  // called after each round
};

struct ReadProbeResult {
  GridPlan plan;
  LatencyGrid grid;
  UnitVerdict verdict;
  uint64_t ios = 0;          // timed reads, warm-up excluded
  double elapsed_s = 0.0;    // device clock, warm-up included
  int rounds = 0;
  std::string stop_reason;   // "settled", "budget", "round limit"
};

ReadProbeResult run_read_probe(Device& device, const GridPlan& plan, const ReadProbeOptions& options);

}  // namespace ssdprobe
