// The read phases of a run: the read grid over --region, the re-read of the
// write window once it has been written, and the check of what the kernel
// reports against what they found.
#pragma once

#include <optional>
#include <string>

#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

PhaseOutcome run_read_grid(RunContext& run);

// Many drives answer a read of never-written or trimmed space from the
// mapping table without sensing NAND, so a drive that is new, or mostly
// empty, shows no read page however long it is probed. After --write the
// window has been written (by the probes and then by the restore, which
// writes the saved content back), so when the first grid found no page the
// read grid is repeated inside the window.
PhaseOutcome reread_written_window(RunContext& run);
std::optional<std::string> skip_reread_if_page_found(const RunContext& run);

// The sysfs values (minimum_io_size, physical_block_size...) against the
// units found, and the note on a read page the grids did not show: every
// reason the run's data allow, and what would tell them apart
// (run/read_page_note.h).
PhaseOutcome check_kernel_values(RunContext& run);

}  // namespace ssdprobe
