// The write phases of a run, in their order: open the write session (save
// the window to the journal), the write grid, the sequential erase stream,
// the write half of the parallelism probe, and the restore. The restore
// runs also when an earlier phase was interrupted or failed (the pipeline
// runs it after a stop), so the window is put back whatever happened.
// The set-up before them is run/write_setup.h.
#pragma once

#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

PhaseOutcome open_write_session(RunContext& run);
PhaseOutcome run_write_grid(RunContext& run);
PhaseOutcome run_erase_stream(RunContext& run);
PhaseOutcome run_write_parallelism_phase(RunContext& run);
PhaseOutcome restore_window(RunContext& run);

}  // namespace ssdprobe
