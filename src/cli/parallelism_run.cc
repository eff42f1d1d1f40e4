#include "cli/parallelism_run.h"

#include "core/error.h"
#include "probes/parallelism_plan.h"
#include "probes/parallelism_probe.h"

namespace ssdprobe {

ParallelismSection run_parallelism(Target& target, const Options& options, std::optional<uint64_t> read_page,
                                   double budget_s) {
  ParallelismSection section;
  section.budget_s = budget_s;
  const DeviceLimits& limits = target.device->limits();
  ParallelismPlanInput input;
  input.target_size = limits.size_bytes;
  input.disk_start = target.topology.partition_start_bytes;
  input.logical_block = limits.logical_block;
  input.max_queue_depth = limits.max_queue_depth;
  input.region = options.region;
  input.read_page = read_page;
  ParallelismPlan plan;
  try {
    plan = plan_parallelism(input);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::target) throw;
    section.verdict = parallelism_not_measured(e.what());
    return section;
  }
  ParallelismProbeOptions probe;
  probe.budget_s = budget_s;
  probe.seed = options.seed;
  const ParallelismProbeResult result = run_parallelism_probe(*target.device, plan, probe);
  section.verdict = result.verdict;
  section.read_bytes = plan.read_bytes;
  section.rounds = result.rounds;
  section.ios = result.ios;
  section.device_time_s = result.elapsed_s;
  return section;
}

}  // namespace ssdprobe
