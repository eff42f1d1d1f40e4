// The write probe of a --write run on a host-managed zoned device (the
// zone-safe path, run/runs.cc): sequential writes into the empty zones the
// write session chose (safety/zone_choice.h), journaled by the session
// before this phase and reset by the restore phase after it, also after a
// signal or an error here. It fills the document's `zoned_write` section.
#pragma once

#include <string>

#include "probes/zoned_write_probe.h"
#include "report/result.h"
#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

PhaseOutcome run_zoned_write(RunContext& run);

// The per-zone results summarised into `section` (zones, bytes, latencies,
// stall periods and the comparison); pure, for tests.
void summarize_zoned_writes(ZonedWriteSection& section, const ZonedWriteResult& result);
// The stall period (if any zone showed one) against the zone size and
// capacity, and what was not determined.
std::string compare_with_zone(const ZonedWriteSection& section);

}  // namespace ssdprobe
