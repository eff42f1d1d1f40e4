// The write phases of a run, in their order: open the write session (save
// the window to the journal), the write grid, the sequential erase stream,
// the write half of the parallelism probe, and the restore. The restore
// runs also when an earlier phase was interrupted or failed (the pipeline
// runs it after a stop), so the window is put back whatever happened.
// The set-up before them is run/write_setup.h.
#pragma once

#include <string_view>

#include "probes/grid_probe.h"
#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

PhaseOutcome open_write_session(RunContext& run);
PhaseOutcome run_write_grid(RunContext& run);
PhaseOutcome run_erase_stream(RunContext& run);
// After the stream: write_probe.write_amplification from the records of the
// phases before it (phases[].writes) and the counters' last reading.
void summarize_write_counters(RunContext& run);
PhaseOutcome run_write_parallelism_phase(RunContext& run);
PhaseOutcome restore_window(RunContext& run);

// Whether the phase of that name writes inside the window through the engine
// (the probes; not the session's set-up, the restore or the re-read).
bool writes_in_window(std::string_view phase);

// The write grid over the window, for the write_grid phase and the grid
// inside the SLC cache (run/in_cache_grid_phase.h).
GridPlan write_grid_plan(const RunContext& run);
// The same plan for `window` of an opened target: set-up makes it before
// the question (run/write_setup.h), so a window too small for it is refused
// before anything is written. Throws as plan_write_grid does.
GridPlan write_grid_plan(const Target& target, const Region& window);
GridProbeResult run_write_grid_probe(RunContext& run, const GridPlan& plan, const char* name, double budget_s,
                                     uint64_t max_bytes);
// The window from its first byte whose disk offset (`disk_start`: the
// partition's start) is a multiple of `unit`; the whole window when none is.
Region unit_aligned(const Region& window, uint64_t unit, uint64_t disk_start);
// When a grid's later rounds moved from its first by a quarter of a typical
// cell or more (the drive changed state during it): a note says so and
// `unit`, the grid's answer, is marked regime "mixed".
void mark_regime_shift(ResultDocument& doc, DetectedUnit& unit, const GridProbeResult& grid, const char* grid_name);

}  // namespace ssdprobe
