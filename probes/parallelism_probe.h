// The parallelism probe: a queue-depth sweep of small random reads and a
// stride probe of concurrent read pairs (analysis/parallelism.h says what
// is concluded from them, probes/parallelism_plan.h where the IOs go).
// Read-only.
//
// Rounds: each round runs one replicate segment at every depth (in shuffled
// order, so drift cannot favour a depth) and, interleaved in shuffled order,
// a few lone reads and pairs at every power-of-two stride. Rounds continue
// until kRounds are done or the first-phase share of the budget is spent.
// Then, when those strides show an interleave, pairs at 2, 3 ... 64 times it
// count the units (second phase, with the rest of the budget).
#pragma once

#include <cstdint>

#include "analysis/parallelism.h"
#include "device/device.h"
#include "probes/parallelism_plan.h"

namespace ssdprobe {

struct ParallelismProbeOptions {
  double budget_s = 6.0;         // device time for the whole probe
  uint64_t seed = 1;
  int rounds = 6;                // replicate segments per depth, at most
  uint32_t pairs_per_round = 8;  // pairs per stride per round (and lone reads)
};

struct ParallelismProbeResult {
  ParallelismPlan plan;
  ParallelismData data;
  ParallelismVerdict verdict;
  int rounds = 0;
  uint64_t ios = 0;              // timed IOs (warm-up excluded)
  double elapsed_s = 0.0;        // device clock, warm-up included
};

ParallelismProbeResult run_parallelism_probe(Device& device, const ParallelismPlan& plan,
                                             const ParallelismProbeOptions& options);

}  // namespace ssdprobe
