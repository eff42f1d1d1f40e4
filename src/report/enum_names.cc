#include "report/enum_names.h"

namespace ssdprobe {

const char* unit_state_name(UnitState state) {
  switch (state) {
    case UnitState::found: return "found";
    case UnitState::absent: return "absent";
    case UnitState::undetermined: return "undetermined";
    case UnitState::not_measured: return "not_measured";
  }
  return "undetermined";
}

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "warning";
}

const char* verdict_status_name(VerdictStatus status) {
  switch (status) {
    case VerdictStatus::ok: return "OK";
    case VerdictStatus::action: return "ACTION";
    case VerdictStatus::inconclusive: return "INCONCLUSIVE";
  }
  return "INCONCLUSIVE";
}

const char* severity_label(Severity severity) {
  switch (severity) {
    case Severity::info: return "NOTE";
    case Severity::warning: return "WARNING";
    case Severity::error: return "ERROR";
  }
  return "NOTE";
}

const char* stop_reason_name(GridStopReason reason) {
  switch (reason) {
    case GridStopReason::settled: return "settled";
    case GridStopReason::budget: return "budget";
    case GridStopReason::byte_cap: return "byte cap";
    case GridStopReason::io_cap: return "IO cap";
    case GridStopReason::round_limit: return "round limit";
  }
  return "round limit";
}

const char* unit_cost_key(UnitCost cost) {
  switch (cost) {
    case UnitCost::per_block_touched: return "per_block_touched";
    case UnitCost::per_partial_block: return "per_partial_block";
    case UnitCost::per_stripe_round: return "per_stripe_round";
  }
  return "per_block_touched";
}

const char* phase_state_name(PhaseState state) {
  switch (state) {
    case PhaseState::done: return "done";
    case PhaseState::budget: return "budget";
    case PhaseState::skipped: return "skipped";
    case PhaseState::failed: return "failed";
    case PhaseState::interrupted: return "interrupted";
    case PhaseState::not_run: return "not_run";
  }
  return "failed";
}

}  // namespace ssdprobe
