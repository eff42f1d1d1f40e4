// The parallelism probe: a queue-depth sweep of small random reads and a
// stride probe of concurrent read pairs (analysis/parallelism.h says what
// is concluded from them, probes/parallelism_plan.h where the IOs go).
// Reads by default; with op = write the same experiments with writes
// (cli/write_run.cc runs them inside the saved write window).
//
// Rounds: the first climbs the depths in ascending order until IOPS level
// off (parallelism_plan.h, sweep_levelled_off); each later round runs one
// replicate segment at every depth the first reached (in shuffled order, so
// drift cannot favour a depth). Every round also times, in shuffled order, a
// few lone reads and pairs at every power-of-two stride. Rounds continue
// until options.rounds are done or the first-phase share of the budget is
// spent (keeping room for the refinement); once the knee and plateau have
// settled (analysis/parallelism.h, knee_settled) the rounds left time the
// stride pairs alone. Then the sweep is refined around the
// knee those rounds show (probes/parallelism_plan.h, knee_refinement): as
// many rounds again of one segment at each refined depth, in what is left of
// the first-phase share. Then, when the strides show an interleave, pairs at
// 2, 3 ... 64 times it count the units (second phase, with the rest of the
// budget).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/parallelism.h"
#include "device/device.h"
#include "probes/parallelism_plan.h"
#include "runner/runner.h"

namespace ssdprobe {

struct ParallelismProbeOptions {
  // Reads, or writes. Writes are issued only inside plan.region_begin ..
  // region_end (the caller plans over the write window it has saved and
  // restores), only to a writable device, and every one is checked against
  // the plan before it is submitted.
  IoOp op = IoOp::read;
  double budget_s = 6.0;         // device time for the whole probe
  uint64_t seed = 1;
  int rounds = 6;                // replicate segments per depth, at most
  uint32_t pairs_per_round = 8;  // pairs per stride per round (and lone reads)
  uint64_t max_bytes = 0;        // most bytes the probe may issue, warm-up included (0: no cap; writes: wear)
};

struct ParallelismProbeResult {
  ParallelismPlan plan;
  ParallelismData data;
  ParallelismVerdict verdict;
  int rounds = 0;
  std::vector<uint32_t> refined_depths;  // added around the knee (may be empty)
  int refinement_rounds = 0;     // segments each refined depth got
  uint64_t ios = 0;              // timed IOs (warm-up excluded)
  uint64_t bytes_issued = 0;     // every IO's bytes, warm-up included (with op = write: bytes written)
  double elapsed_s = 0.0;        // device clock, warm-up included
};

// The probe stopped on an IO the device failed (the runner's IoFailed, with
// nothing left in flight), carrying what it had issued by then: with writes,
// wear the run must report.
class ParallelismProbeFailed : public IoFailed {
 public:
  ParallelismProbeFailed(const std::string& message, uint64_t bytes_issued)
      : IoFailed(message), bytes_issued(bytes_issued) {}
  uint64_t bytes_issued;
};

ParallelismProbeResult run_parallelism_probe(Device& device, const ParallelismPlan& plan,
                                             const ParallelismProbeOptions& options);

}  // namespace ssdprobe
