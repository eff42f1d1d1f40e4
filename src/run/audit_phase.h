// The layout audit as a phase: inside the main job (after timing, so
// misaligned starts get a measured cost) and as `ssdprobe audit` (no timing
// IO: checked against the block sizes the kernel reports, or the units of a
// saved document).
#pragma once

#include "device/target.h"
#include "report/result.h"
#include "run/phase.h"
#include "run/run_context.h"
#include "run/run_options.h"

namespace ssdprobe {

// Reads the layout under `target`, judges it against the units in `doc`,
// prices each start from doc's grids, and adds the findings to
// doc.mismatches. A layout that cannot be read (a simulated drive, a disk
// that cannot be opened) leaves the reason in doc.audit instead of failing
// the run; --at lines are computed either way.
void add_audit(ResultDocument& doc, const Target& target, const Options& options);

// The main job's audit: a layout that cannot be read is said in the
// document and the run goes on.
PhaseOutcome audit_layout_phase(RunContext& run);
// `ssdprobe audit`: the layout is the whole answer, so one that cannot be
// read stops the command (Error(target) with the reason).
PhaseOutcome audit_required_phase(RunContext& run);
// A regular file that holds a disk's layout at its start (a partition
// table, md, LVM or a filesystem, or a damaged one the readers name in a
// note) and was not given with --extents: a disk
// image, whose offsets are the image's own, as the loop device over it
// would show them. False for anything else, or when its start cannot be read.
bool is_disk_image(const Target& target, const Options& options);
// `ssdprobe audit --units-from FILE`: the units to check against.
PhaseOutcome take_saved_units(RunContext& run);
std::optional<std::string> skip_saved_units_if_none(const RunContext& run);

}  // namespace ssdprobe
