#include "run/write_setup.h"

#include <unistd.h>

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "firmware/firmware_query.h"
#include "run/write_bound.h"
#include "run/write_phases.h"
#include "safety/confirm.h"

namespace ssdprobe {
namespace {

// The question states the most the run can write under --max-write-bytes,
// in bytes and in the drive's terms, and for how long.
WritePlanSummary with_bound(WritePlanSummary plan, const Options& options, const WriteCapPlan& cap,
                            const SmartWriteCounters& counters) {
  plan.max_bytes_written = cap.planned.total();
  plan.max_bytes_breakdown = cap.planned.breakdown();
  plan.max_write_cap = cap.cap;
  plan.share_of_drive = share_of_drive(plan.max_bytes_written, counters.endurance_estimate_bytes, plan.device_size);
  for (const auto& [phase, reason] : cap.skipped) {
    if (phase == "write_grid_in_cache") continue;  // the SLC cache probe's reason covers it
    plan.left_out += (plan.left_out.empty() ? "" : "; ") + reason;
  }
  plan.budget_s = options.budget_s;
  return plan;
}

// A simulated drive: nothing real to preserve, but asked (or refused
// without a terminal and --yes) exactly as a real drive is.
WritePlanSummary simulated_plan(const Target& target, const Region& window) {
  WritePlanSummary plan;
  plan.path = target.path;
  plan.model = target.topology.model;
  plan.serial = target.topology.serial;
  plan.device_size = target.topology.size_bytes;
  plan.offset = window.offset;
  plan.length = window.length;
  plan.preserve = false;
  plan.simulated = true;
  return plan;
}

}  // namespace

Region write_window(const Target& target, const Options& options) {
  if (options.region.offset == 0 && options.region.length == 0) return default_write_window(target.topology.size_bytes);
  Region window = options.region;
  if (window.length == 0 && window.offset < target.topology.size_bytes) window.length = target.topology.size_bytes - window.offset;
  if (window.offset + window.length > target.topology.size_bytes) {
    throw Error(ErrorCategory::usage, fmt::format("--region {}+{} runs past the end of {} ({} bytes)", window.offset,
                                                  window.length, target.path, target.topology.size_bytes));
  }
  return window;
}

std::unique_ptr<WriteSession> claim_for_writes(const Target& target, const Region& window, const Options& options) {
  if (target.kind == TargetKind::sim) return nullptr;
  WriteSessionOptions session_options;
  session_options.journal_dir = options.journal_dir;
  session_options.preserve = options.preserve;
  session_options.region_given = options.region_given();
  session_options.journal_dir_options.allow_ram = options.allow_ram_journal;
  return std::make_unique<WriteSession>(target, window, session_options);
}

void refuse_unplannable_writes(const Target& target, const Region& window, const WriteSession* session) {
  if (session != nullptr && session->zoned()) return;
  // The write grid's own plan: the write_grid phase and the grid inside the
  // SLC cache (a subset of it) plan exactly this. The erase stream, the SLC
  // cache probe and the write parallelism probe refuse no window (the last
  // records a window too small for it as not measured).
  write_grid_plan(target, window);
}

SmartWriteCounters write_counters_of(const Target& target) {
  const bool drive = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  return drive ? read_write_counters(target.path) : SmartWriteCounters{};
}

WriteCapPlan confirm_writes(const Target& target, const Region& window, const WriteSession* session,
                            const Options& options, const SmartWriteCounters& counters) {
  const bool interactive = ::isatty(STDIN_FILENO) != 0;
  const WritePlanSummary summary = session == nullptr ? simulated_plan(target, window) : session->summary();
  const bool restored = !summary.simulated && summary.preserve && !(session != nullptr && session->zoned());
  const std::optional<uint64_t> drive_bytes = whole_drive_bytes(target);
  const uint64_t slc_cap = slc_fill_cap(options.cache_bytes, drive_bytes);
  WriteCapPlan cap =
      plan_write_cap(write_bound(window, restored, slc_cap, slc_flat_stop(slc_cap, drive_bytes)), options.max_write_bytes);
  WritePlanSummary plan = with_bound(summary, options, cap, counters);
  if (session != nullptr && session->zoned()) {
    // The window is the zones' span; only their capacity can be written, and
    // a zone reset (no bytes) gives it back.
    uint64_t zones = 0;
    for (const Zone& z : session->write_zones()) zones += z.capacity_bytes;
    cap = WriteCapPlan{options.max_write_bytes, WriteBound{}, {}, 0};
    if (zones > options.max_write_bytes) {
      cap.skipped["zoned_write"] = fmt::format("zoned writes skipped: the zones hold up to {}, more than "
                                               "--max-write-bytes {}", format_size(zones),
                                               format_size(options.max_write_bytes));
    }
    plan.max_bytes_written = cap.skipped.empty() ? zones : 0;
    plan.max_bytes_breakdown = "sequential writes into the zones up to their capacity";
    plan.share_of_drive = share_of_drive(zones, counters.endurance_estimate_bytes, plan.device_size);
    plan.left_out = cap.skipped.empty() ? "" : cap.skipped["zoned_write"];
  }
  confirm_write(plan, options.yes, interactive, stdin, stderr);
  cap.announced = plan.max_bytes_written;
  return cap;
}

}  // namespace ssdprobe
