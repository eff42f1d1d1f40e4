// The layout audit as the command layer runs it: inside the main job (after
// timing, so misaligned starts get a measured cost) and as `ssdprobe audit`
// (no timing IO: checked against the block sizes the kernel reports).
#pragma once

#include "cli/options.h"
#include "device/target.h"
#include "report/result.h"

namespace ssdprobe {

// Reads the layout under `target`, judges it against the units in `doc`,
// prices each start from doc's grids, and adds the findings to
// doc.mismatches. A layout that cannot be read (a simulated drive, a disk
// that cannot be opened) leaves the reason in doc.audit instead of failing
// the run; --at lines are computed either way.
void add_audit(ResultDocument& doc, const Target& target, const Options& options);

}  // namespace ssdprobe
