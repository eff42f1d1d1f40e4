// The write phases of a run, in their order: open the write session (save
// the window to the journal), the write grid, the sequential erase stream,
// the write half of the parallelism probe, and the restore. The restore
// runs also when an earlier phase was interrupted or failed (the pipeline
// runs it after a stop), so the window is put back whatever happened.
#pragma once

#include <memory>

#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

// Set-up before any IO (run/runs.cc): the bytes write probes may touch
// (--region, or the default window), and the session that claims, checks
// and confirms the target (null on simulated drives, which are asked for
// confirmation all the same).
Region write_window(const Target& target, const Options& options);
std::unique_ptr<WriteSession> prepare_writes(const Target& target, const Region& window, const Options& options);

PhaseOutcome open_write_session(RunContext& run);
PhaseOutcome run_write_grid(RunContext& run);
PhaseOutcome run_erase_stream(RunContext& run);
PhaseOutcome run_write_parallelism_phase(RunContext& run);
PhaseOutcome restore_window(RunContext& run);

}  // namespace ssdprobe
