// The grid probe: times O_DIRECT reads (or writes) over a planned size x
// offset grid, in rounds, until the unit analysis is settled or the budget is
// spent. Each round shuffles its IOs so slow drift cannot favour one cell,
// sends every IO to a fresh slot so no cache answers it, and (at queue depth
// 1) spends most of its IOs on the cells that tell apart the units still in
// contention. At queue depth 1 a read grid first samples one row alone (a
// first look, FirstLook below), which can name the page with a fraction of
// the grid's IOs. Drift between rounds is measured and removed before
// analysis (analysis/round_drift.h); the reported grid keeps the raw
// latencies.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "analysis/latency_grid.h"
#include "analysis/unit_inference.h"
#include "device/device.h"
#include "probes/grid_plan.h"

namespace ssdprobe {

struct GridProbeProgress {
  const char* name = "read";
  int round = 0;
  uint64_t ios = 0;
  double elapsed_s = 0.0;
  double budget_s = 0.0;
  const UnitVerdict* verdict = nullptr;
};

struct GridProbeOptions {
  IoOp op = IoOp::read;
  const char* name = "read";
  UnitInferenceOptions analysis;     // candidates, pick rule, thresholds
  double budget_s = 60.0;             // on the device's clock (virtual for sims)
  uint32_t queue_depth = 1;
  uint64_t seed = 1;
  uint32_t initial_samples_per_cell = 3;
  uint32_t warmup_ios = 64;
  int min_rounds = 2;                 // rounds before a settled verdict may stop the probe (and it must
                                      // agree with the previous round's)
  int max_rounds = 14;
  uint64_t max_bytes = 0;             // stop before issuing more than this (0 = no limit): caps wear from writes
  // Stop before the grid holds more timed IOs than this: the bootstrap's
  // cost grows with the sample count, and a fast drive at a deep queue
  // would otherwise spend minutes of CPU analysing its last round.
  uint64_t max_ios = 2'000'000;
  std::function<void(const GridProbeProgress&)> progress;  // called after each round
  // Another question this grid answers (the audit's misalignment costs):
  // once the verdict has settled, the request sizes whose rows it still
  // wants more samples in, asked of the drift-corrected grid. Each answer
  // that names rows buys one round over just those rows (every row at a
  // queue depth above 1, where rounds keep one mix), which doubles their
  // samples; at most max_question_rounds of them, inside the budget and caps.
  // Empty, or no function: the question is answered.
  std::function<std::vector<uint64_t>(const LatencyGrid&, const UnitVerdict&)> open_rows;
  int max_question_rounds = 4;
};

// What a first look did. When the plan names a first-look row
// (GridPlan::first_look_size) and the queue depth is 1, the first rounds
// sample that row alone: its reads cross each candidate unit's boundaries at
// offsets of their own, so the row can name the unit with a fraction of the
// grid's IOs. The look ends when a second look round confirms a found unit,
// when it sees no level at all (ruling every unit out takes every row),
// when it has spent what the full grid's first round costs, or when the
// budget runs out. The full grid follows either way (the heat map and the
// audit's costs need every size; past the budget if need be), its first
// round samples every cell as a look-less first round would, and it must
// settle on the look's unit before the probe may stop; after a look that
// confirmed nothing, two full rounds must agree, as without a look. The
// look's samples stay in the grid.
struct FirstLook {
  uint64_t request_bytes = 0;    // the row it sampled; 0: no first look ran
  uint64_t ios = 0;              // timed IOs, all in that row
  int rounds = 0;
  std::optional<uint64_t> unit;  // the unit it settled on, confirmed by a second look round; nothing if none
  double support = 0.0;          // bootstrap support for `unit` (0 when none)
};

// Why a grid stopped sampling (the report layer names them).
enum class GridStopReason {
  settled,      // the verdict held for two rounds at the settle confidence
  budget,       // --budget's device time ran out
  byte_cap,     // the next round would write more than max_bytes
  io_cap,       // the next round would pass max_ios
  round_limit,  // max_rounds rounds done
};

struct GridProbeResult {
  GridPlan plan;
  LatencyGrid grid;
  UnitVerdict verdict;
  uint64_t ios = 0;          // timed IOs, warm-up excluded
  uint64_t bytes_issued = 0; // every IO's bytes, warm-up included
  double elapsed_s = 0.0;    // device clock, warm-up included
  int rounds = 0;
  int question_rounds = 0;   // of `rounds`, how many open_rows asked for
  GridStopReason stop_reason = GridStopReason::round_limit;
  std::vector<double> round_shifts_us;  // drift removed from each round before analysis (round 1: 0)
  LatencyGrid corrected;                // grid less each round's drift: what the verdict was drawn from
  FirstLook first_look;
};

// Writes (op == write) need a writable device and fill every request with
// pseudo-random bytes (so compressing or deduplicating drives cannot skip them).
GridProbeResult run_grid_probe(Device& device, const GridPlan& plan, const GridProbeOptions& options);

}  // namespace ssdprobe
