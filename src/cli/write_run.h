// The write half of a characterization: with the target already claimed by a
// WriteSession and confirmed, save the window, run the write grid and the
// sequential stream and the write half of the parallelism probe, and restore
// — on success, on error and on a signal.
#pragma once

#include <optional>

#include "cli/options.h"
#include "cli/progress.h"
#include "device/target.h"
#include "probes/erase_stream_probe.h"
#include "probes/grid_probe.h"
#include "report/result.h"
#include "safety/write_session.h"

namespace ssdprobe {

struct WriteRunResult {
  GridProbeResult grid;
  EraseStreamResult stream;
  ParallelismSection parallelism;  // the write sweep (cli/parallelism_run.h)
  WriteProbeSummary summary;
};

// `session` is null for simulated drives (nothing to preserve). `budget_s`
// is the device time left for the write probes: half for the write grid,
// the rest (whatever the grid left) for the sequential stream, and what
// those two left, at least kWriteParallelismBudgetShare of --budget, for
// the parallelism probe's writes, last before the restore. `read_page` (the
// measured one, if any) is the write pairs' smallest stride.
WriteRunResult run_write_probes(Target& target, const Region& window, WriteSession* session, const Options& options,
                                double budget_s, ProgressLine& progress,
                                std::optional<uint64_t> read_page = std::nullopt);

}  // namespace ssdprobe
