// Runs a list of phases in order and records how each ended in the
// document's `phases`. Interrupts, budget cuts and failures are handled
// here, once:
//  - a phase that throws (a signal's Error(interrupted), an IO error, a bug)
//    is recorded as interrupted or failed, and the run stops: the phases
//    after it are recorded as not run, except those that run after a stop
//    (the restore, and the steps that only compute from what was measured);
//  - the units a phase that did not finish was to measure are marked
//    "not measured" with the reason;
//  - a phase that does not apply (no --write, nothing to re-read) is
//    recorded as skipped with the reason.
// The document then holds everything that finished, and says what did not.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

// Returns the error that stopped the run, if one did: the first phase's to
// throw, or a later one thrown while the run was stopping (a failed restore
// matters more than what caused it). Never throws ssdprobe::Error.
std::optional<Error> run_phases(RunContext& run, const std::vector<Phase>& phases);

}  // namespace ssdprobe
