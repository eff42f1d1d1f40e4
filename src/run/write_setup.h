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
#include "firmware/write_counters.h"
#include "run/run_options.h"
#include "run/write_cap.h"
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
// The drive's write counters now (firmware/firmware_query.h); empty for a
// target with no drive under it (a sim, a file). Read at set-up too: the
// question states the bound as a share of the endurance estimate.
SmartWriteCounters write_counters_of(const Target& target);
// The question (safety/confirm.h), asked last, with the bound in the drive's
// terms (`counters`' endurance estimate, else the capacity) and what
// --max-write-bytes leaves out: the plan returned. Simulated drives are
// asked too: a script tested on a sim must not first stop at the question
// on hardware. Throws Error(usage) when the restore does not fit the cap.
WriteCapPlan confirm_writes(const Target& target, const Region& window, const WriteSession* session,
                            const Options& options, const SmartWriteCounters& counters);

}  // namespace ssdprobe
