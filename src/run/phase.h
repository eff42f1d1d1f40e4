// A phase of a run: one step with a name, what it needs, and what it adds
// to the document. A run is an ordered list of these (run/runs.cc has the
// lists, run/pipeline.h runs them); the document's `phases` records how each
// one ended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probes/grid_probe.h"
#include "report/result.h"

namespace ssdprobe {

struct RunContext;

// How a phase that ran ended. Errors are not outcomes: a phase throws
// ssdprobe::Error, and the pipeline records it and stops the run.
struct PhaseOutcome {
  PhaseState state = PhaseState::done;
  std::string reason;          // why cut short, skipped or failed
  double device_time_s = 0.0;  // what it spent of the device's time
  // What it wrote past the engine, whose count the pipeline takes for the
  // phases that write in the window: the restore, through the journal's
  // descriptor. Its phases[].writes.
  std::optional<uint64_t> bytes_written_directly = std::nullopt;

  static PhaseOutcome done(double device_time_s = 0.0) { return {PhaseState::done, "", device_time_s, std::nullopt}; }
  // Done, having written `bytes` past the engine.
  static PhaseOutcome done_writing_directly(uint64_t bytes) { return {PhaseState::done, "", 0.0, bytes}; }
  // Ran, but something outside it decided it does not apply after all
  // (the window too small for a read grid, nothing saved to restore).
  static PhaseOutcome skipped(std::string why) { return {PhaseState::skipped, std::move(why), 0.0, std::nullopt}; }
  // Ran and produced a result, but --budget ended it before it settled.
  static PhaseOutcome cut_by_budget(std::string why, double device_time_s) {
    return {PhaseState::budget, std::move(why), device_time_s, std::nullopt};
  }
  // A grid probe's phase: cut by --budget when that is why it stopped.
  static PhaseOutcome of_grid(const GridProbeResult& grid) {
    if (grid.stop_reason != GridStopReason::budget) return done(grid.elapsed_s);
    return cut_by_budget("--budget ran out after " + std::to_string(grid.rounds) + " rounds, before the verdict settled",
                         grid.elapsed_s);
  }
  // An optional step that failed without stopping the run (its section says why).
  static PhaseOutcome failed(std::string why, double device_time_s) {
    return {PhaseState::failed, std::move(why), device_time_s, std::nullopt};
  }
};

enum class Needs {
  nothing,
  writes,  // --write: the write window is claimed, confirmed and (unless --no-preserve) journaled
};

struct Phase {
  const char* name;  // the document's phases[].name
  PhaseOutcome (*run)(RunContext& run);
  Needs needs = Needs::nothing;
  // Why this run does not need the phase (nullopt: it runs). Checked when
  // the phase's turn comes, so it sees what the phases before it found.
  std::optional<std::string> (*skip_if)(const RunContext& run) = nullptr;
  // Runs also after an earlier phase was interrupted or failed: the restore,
  // and the steps that only compute from what was measured.
  bool runs_after_stop = false;
  // The units this phase measures: when it does not finish, each one still
  // without an answer is marked "not measured" with the reason.
  std::vector<DetectedUnit ResultDocument::*> decides = {};
  // Every IO it does goes through the engine (none through the journal's
  // descriptor or libblkid's): the disk's counters less the engine's count
  // are other IO, recorded in its phases[].other_io (run/io_sample.h).
  bool timed = false;
  // Runs once the phase has finished (done or cut by --budget) and its
  // record, with the write counters read around it, is in the document.
  void (*after)(RunContext& run) = nullptr;
};

}  // namespace ssdprobe
