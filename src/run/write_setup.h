// Before any IO of a --write run (run/runs.cc): the bytes write probes may
// touch (--region, or the default window), and the session that claims,
// checks and confirms the target. Errors here end the run with no document.
#pragma once

#include <memory>

#include "core/units.h"
#include "device/target.h"
#include "run/run_options.h"
#include "safety/write_session.h"

namespace ssdprobe {

Region write_window(const Target& target, const Options& options);
// Null on simulated drives (nothing real to preserve), which are asked for
// confirmation all the same: a script tested on a sim must not first stop
// at the question on hardware.
std::unique_ptr<WriteSession> prepare_writes(const Target& target, const Region& window, const Options& options);

}  // namespace ssdprobe
