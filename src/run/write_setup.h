// Before any IO of a --write run (run/runs.cc): the bytes write probes may
// touch (--region, or the default window), the session that claims and
// checks the target, the checks a write phase would otherwise make only
// after earlier phases had written, and the question. Errors here end the
// run with no document.
//
// The order matters: every refusal comes before the question, and the
// question before the first write. A window too small for the write grid
// used to be refused by the write_grid phase, after the SLC cache probe had
// rewritten it for its whole budget.
#pragma once

#include <memory>

#include "core/units.h"
#include "device/target.h"
#include "run/run_options.h"
#include "safety/write_session.h"

namespace ssdprobe {

Region write_window(const Target& target, const Options& options);
// Claims and checks the target (safety/write_session.h steps 0-3); asks
// nothing yet. Null on simulated drives (nothing real to preserve).
std::unique_ptr<WriteSession> claim_for_writes(const Target& target, const Region& window, const Options& options);
// With the engine open (the plans use its limits): refuses what a write
// phase would refuse later, with the same error: a window too small for the
// write grid (a zone-safe run writes no grid).
void refuse_unplannable_writes(const Target& target, const Region& window, const WriteSession* session);
// The question (safety/confirm.h), asked last. Simulated drives are asked
// too: a script tested on a sim must not first stop at the question on
// hardware.
void confirm_writes(const Target& target, const Region& window, const WriteSession* session, const Options& options);

}  // namespace ssdprobe
