// The write half of a characterization: with the target already claimed by a
// WriteSession and confirmed, save the window, run the write grid and the
// sequential stream, and restore — on success, on error and on a signal.
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
  WriteProbeSummary summary;
};

// `session` is null for simulated drives (nothing to preserve). `budget_s`
// is the device time left for the write probes: half for the write grid,
// the rest (whatever the grid left) for the sequential stream.
WriteRunResult run_write_probes(Target& target, const Region& window, WriteSession* session, const Options& options,
                                double budget_s, ProgressLine& progress);

}  // namespace ssdprobe
