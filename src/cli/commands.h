// The subcommands, as a table (like ninja's kTools): each is a name, a help
// line and a function from parsed options to an exit code.
#pragma once

#include <string>

#include "cli/main_entry.h"
#include "cli/options.h"

namespace ssdprobe {

// A run or audit that finished, with a finding at --fail-on's severity
// (README "Exit codes"); not an error: the report and document are complete.
constexpr int kExitFindings = 8;

// Characterizes a target: read grid, inference, comparison, report.
int run_characterize(const Options& options);
// Reports identity and reported geometry without timing IO.
int run_info(const Options& options);
// Lists the simulated drives (as JSON with their ground truth when
// json_path is "-" or a file).
int run_list_sims(const std::string& json_path, bool force);
// Audits the layout on a target without timing IO (run/audit_phase.h has the audit itself).
int run_audit(const Options& options);
// Restores a write run's journal onto its device and verifies it.
int run_restore(const Options& options);

}  // namespace ssdprobe
