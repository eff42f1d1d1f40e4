// The text of every enum the result document carries: the one place where
// states, severities, costs and stop reasons become words. JSON and text
// reports both use these, so the two can never name a value differently.
#pragma once

#include "analysis/step_model.h"
#include "analysis/verdicts.h"
#include "probes/grid_probe.h"
#include "report/result.h"
#include "report/verdict.h"

namespace ssdprobe {

const char* unit_state_name(UnitState state);        // "found", "absent", "undetermined", "not_measured"
const char* severity_name(Severity severity);        // "info", "warning", "error"
const char* verdict_status_name(VerdictStatus status);  // "OK", "ACTION", "INCONCLUSIVE": verdict.status
const char* severity_label(Severity severity);       // "NOTE", "WARNING", "ERROR": the audit's and verdict's words
const char* stop_reason_name(GridStopReason reason);  // "settled", "budget", "byte cap", "IO cap", "round limit"
const char* unit_cost_key(UnitCost cost);  // "per_block_touched", "per_partial_block", "per_stripe_round" (step_model.h has the prose)
const char* phase_state_name(PhaseState state);  // "done", "budget", "skipped", "failed", "interrupted", "not_run"

}  // namespace ssdprobe
