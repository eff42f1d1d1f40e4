#include "run/parallelism_section.h"

#include <algorithm>
#include <fmt/format.h>
#include <string>

#include "analysis/host_bound.h"
#include "core/error.h"
#include "probes/more_rings_probe.h"
#include "probes/parallelism_plan.h"
#include "probes/parallelism_probe.h"

namespace ssdprobe {

namespace {

// The sweep compares IOPS across queue depths, so every depth must be waited
// for the same way: polling (--spin-us) runs only while few IOs are out and
// would time the shallow depths polled and the deep ones asleep, a step in
// the curve made by the engine. The probe sleeps throughout, as fio does;
// the grids poll again after it.
class SleepingWaits {
 public:
  SleepingWaits(Device& device, uint32_t spin_us) : device_(device), spin_us_(spin_us) {
    device_.set_completion_spin(0);
  }
  ~SleepingWaits() { device_.set_completion_spin(spin_us_); }
  SleepingWaits(const SleepingWaits&) = delete;
  SleepingWaits& operator=(const SleepingWaits&) = delete;

 private:
  Device& device_;
  uint32_t spin_us_;
};

// NOPs timed for the engine's ceiling: 7-25 ms on this project's VM.
constexpr uint64_t kCeilingIos = 50'000;

// On an io_uring engine, whose plateau the sweep found (analysis/host_bound.h):
// the engine's own ceiling at the busiest depth, waited for asleep as the
// sweep waits (SleepingWaits), measured right after the sweep so the
// host's load then weighs on both alike; and, when that or the process's
// busy share makes the plateau suspect, the same depth over one ring per
// core (reads only). Returns what the rings read, for the section's totals.
MoreRingsResult judge_whose_plateau(ParallelismVerdict& verdict, Device& device, const ParallelismPlan& plan,
                                    IoOp op, uint64_t seed) {
  MoreRingsResult rings;
  if (!device.uses_io_uring()) return rings;
  const std::optional<DepthSummary> busiest = busiest_depth(verdict);
  if (!busiest) return rings;
  const std::optional<EngineCeiling> ceiling =
      measure_engine_ceiling(busiest->queue_depth, kCeilingIos, 0, plan.read_bytes);
  if (!ceiling) return rings;
  check_host_bound(verdict, *ceiling);
  if (!verdict.host_check || !verdict.host_check->suspected) return rings;  // none: a ceiling of 0 IOPS
  if (op == IoOp::read) {
    rings = time_more_rings(device, plan, busiest->queue_depth, seed);
  } else {
    rings.check.queue_depth = busiest->queue_depth;
    rings.check.not_timed_because = "writes stay on one ring, inside the one window the write session saved";
  }
  judge_host_bound(verdict, rings.check);
  return rings;
}

// The probe over `region` with `op`: reads over --region, or writes over the
// write window the write session saved.
ParallelismSection run_probe(Target& target, const Options& options, const Region& region, IoOp op,
                             std::optional<uint64_t> read_page, double budget_s, int rounds, uint64_t max_bytes) {
  ParallelismSection section;
  section.budget_s = budget_s;
  if (op == IoOp::write) section.window = region;  // the only bytes it may write, also when it fails
  const DeviceLimits& limits = target.device->limits();
  ParallelismPlanInput input;
  input.target_size = limits.size_bytes;
  input.disk_start = target.topology.partition_start_bytes;
  input.logical_block = limits.logical_block;
  input.max_queue_depth = std::min(limits.max_queue_depth, options.max_queue_depth);
  input.region = region;
  input.read_page = read_page;
  if (input.max_queue_depth < 2) {
    section.verdict = parallelism_not_measured(
        options.max_queue_depth < 2 ? "--max-qd 1: the parallelism probe needs at least 2 IOs in flight"
                                    : "the IO engine keeps only 1 IO in flight (psync); use --engine uring", op);
    return section;
  }
  ParallelismPlan plan;
  try {
    plan = plan_parallelism(input);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::target) throw;
    section.verdict = parallelism_not_measured(e.what(), op);
    return section;
  }
  ParallelismProbeOptions probe;
  probe.op = op;
  probe.budget_s = budget_s;
  probe.seed = options.seed;
  probe.rounds = rounds;
  probe.max_bytes = max_bytes;
  ParallelismProbeResult result;
  try {
    const SleepingWaits waits(*target.device, options.spin_us);
    result = run_parallelism_probe(*target.device, plan, probe);
  } catch (const ParallelismProbeFailed& e) {
    // The probe is an optional step: an IO the drive failed or the kernel
    // cancelled (a command that timed out) must not cost the user the
    // grids' results, so the run goes on and says why this section is
    // empty (after writes, the write session still restores the window).
    // The runner reaped every other request first. Everything else (a
    // failed engine call, a signal, a bug) propagates: the engine is then
    // abandoned and the run ends.
    section.verdict = parallelism_not_measured(fmt::format("a {} failed during the probe: {}", io_noun(op), e.what()), op);
    section.failure = e.what();
    section.bytes_issued = e.bytes_issued;  // written before the failure: wear the run reports
    return section;
  }
  section.verdict = result.verdict;
  section.read_bytes = plan.read_bytes;
  section.rounds = result.rounds;
  section.refined_depths = result.refined_depths;
  section.refinement_rounds = result.refinement_rounds;
  section.ios = result.ios;
  section.bytes_issued = result.bytes_issued;
  section.device_time_s = result.elapsed_s;
  try {
    const SleepingWaits waits(*target.device, options.spin_us);
    const MoreRingsResult rings = judge_whose_plateau(section.verdict, *target.device, plan, op, options.seed);
    section.ios += rings.ios;
    section.bytes_issued += rings.bytes;
    section.device_time_s += rings.elapsed_s;
  } catch (const IoFailed& e) {
    // A read that failed on another ring: the sweep's verdict stands, but
    // whose plateau it is was not settled, so the plateau is withdrawn.
    MoreRingsCheck failed;
    failed.not_timed_because = fmt::format("a read failed on another ring: {}", e.what());
    judge_host_bound(section.verdict, failed);
  }
  return section;
}

}  // namespace

ParallelismSection run_parallelism(Target& target, const Options& options, std::optional<uint64_t> read_page,
                                   double budget_s) {
  return run_probe(target, options, options.region, IoOp::read, read_page, budget_s, ParallelismProbeOptions{}.rounds, 0);
}

ParallelismSection run_write_parallelism(Target& target, const Options& options, const Region& window,
                                         std::optional<uint64_t> read_page, double budget_s) {
  return run_probe(target, options, window, IoOp::write, read_page, budget_s, kWriteParallelismRounds,
                   kWriteParallelismByteCap);
}

PhaseOutcome run_read_parallelism(RunContext& run) {
  run.doc.parallelism = run_parallelism(run.target, run.options, run.doc.read_page.bytes,
                                        run.budget.read_parallelism_s(run.tally));
  return parallelism_outcome(run, *run.doc.parallelism, "the parallelism probe",
                             "the grids' results above are complete");
}

PhaseOutcome parallelism_outcome(RunContext& run, const ParallelismSection& section, const std::string& probe,
                                 const std::string& rest_stands) {
  if (section.failure.empty()) return PhaseOutcome::done(section.device_time_s);
  const std::string why = probe + " stopped early: " + section.failure;
  run.doc.notes.push_back(why + "; " + rest_stands);
  run.observer.warn(why);
  return PhaseOutcome::failed(section.failure, section.device_time_s);
}

}  // namespace ssdprobe
