// Every run on a device names the journals still pending on it: a write run
// that did not finish (killed, a failed restore) left part of the device
// holding test data, and the original content is in the journal. info,
// audit and read-only runs would otherwise say nothing about it.
#pragma once

#include <optional>
#include <string>

#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

// As a phase: a note in the document and a warning per pending journal.
PhaseOutcome name_pending_journals(RunContext& run);
std::optional<std::string> skip_journals_if_sim(const RunContext& run);

}  // namespace ssdprobe
