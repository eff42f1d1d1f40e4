// The advice and the verdict, last of every run: recommendations (partition
// start, mkfs/LVM commands, parallelism advice) from the units found, the
// stack the target already lives in, and the audit's verdict.
#pragma once

#include "report/result.h"
#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

// Disk and partition nodes for the commands: the target itself when it is a
// whole disk, its parent disk when it is a partition, placeholders for
// simulated drives and files.
void fill_recommendations(ResultDocument& doc);
PhaseOutcome verdict_phase(RunContext& run);

}  // namespace ssdprobe
