#include "run/runs.h"

#include <unistd.h>

#include <chrono>
#include <fmt/format.h>

#include "core/clock_text.h"
#include "core/interrupt.h"
#include "device/counting_device.h"
#include "device/target.h"
#include "firmware/nvme_passthru_open.h"
#include "run/audit_phase.h"
#include "run/document.h"
#include "run/file_read_region.h"
#include "run/firmware_phase.h"
#include "run/journal_check.h"
#include "run/open_units_phase.h"
#include "run/parallelism_section.h"
#include "run/pipeline.h"
#include "probes/grid_plan.h"
#include "run/read_phases.h"
#include "run/run_cautions.h"
#include "run/in_cache_grid_phase.h"
#include "run/slc_cache_phase.h"
#include "run/verdict_phase.h"
#include "run/write_phases.h"
#include "run/write_setup.h"
#include "run/zoned_read_region.h"
#include "run/zoned_write_phase.h"
#include "safety/journal_index.h"
#include "safety/restore.h"

namespace ssdprobe {
namespace {

using Units = std::vector<DetectedUnit ResultDocument::*>;

// IO is issued in whole logical blocks, so a region must start and end on
// one; refuse before anything is confirmed or opened rather than round.
void check_region_alignment(const Target& target, const Region& region) {
  const uint64_t block = target.topology.logical_block_size.value_or(512);
  if (region.offset % block != 0 || region.length % block != 0) {
    throw Error(ErrorCategory::usage,
                fmt::format("--region {}:{} is not aligned to {}'s {} B logical block: give an offset and length "
                            "that are multiples of {} (e.g. 1M:256M)",
                            region.offset, region.length, target.path, block, block));
  }
}

// An unattached loop device, an empty file: nothing to time. Said before
// the region (which cannot fit in 0 bytes) is judged, as the target's fault.
void refuse_empty_target(const Target& target) {
  if (target.topology.size_bytes != 0) return;
  throw Error(ErrorCategory::target,
              fmt::format("unusable target {}: size 0{}", target.path,
                          target.topology.transport == "loop" ? " (a loop device with nothing attached?)" : ""));
}

// Wall time since `started`, for duration_s.
double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// The runs that do no timing IO (info, audit): the target classified but
// not opened for IO, every unit "not measured" for the reason given. They
// time no IO but still take time: duration_s is their wall time as it is a
// run's (ssdprobe_last_run_duration_seconds of the daily audit), not the 0
// that documents written before gave them.
ResultDocument untimed_run(const Options& options, const std::string& why_not_measured,
                           const std::vector<Phase>& phases, bool allow_directory = false) {
  const auto started = std::chrono::steady_clock::now();
  Target target = open_target(
      {.path = options.target, .open_for_io = false, .seed = options.seed, .allow_directory = allow_directory});
  SilentObserver observer;
  RunContext run(options, target, observer, {options.budget_s, false}, base_document(options, target));
  run.doc.read_page.evidence = "not measured: " + why_not_measured;
  run.doc.write_unit.evidence = run.doc.read_page.evidence;
  run.doc.write_stripe.evidence = run.doc.read_page.evidence;
  run.doc.erase_block.evidence = run.doc.read_page.evidence;
  if (auto stop = run_phases(run, phases)) throw *stop;
  run.doc.duration_s = seconds_since(started);
  run.doc.ended_at = utc_now_text(kIso8601Utc);
  return std::move(run.doc);
}

}  // namespace

const std::vector<Phase>& characterize_phases() {
  static const std::vector<Phase> phases = {
      {.name = "pending_journals", .run = name_pending_journals, .skip_if = skip_journals_if_sim},
      {.name = "read_grid", .run = run_read_grid, .skip_if = skip_reads_if_nothing_written,
       .decides = Units{&ResultDocument::read_page}, .timed = true},
      {.name = "write_session", .run = open_write_session, .needs = Needs::writes},
      {.name = "slc_cache", .run = run_slc_cache_phase, .needs = Needs::writes, .skip_if = skip_cache_if_disabled,
       .decides = Units{&ResultDocument::slc_cache}, .timed = true},
      {.name = "write_grid", .run = run_write_grid, .needs = Needs::writes,
       .decides = Units{&ResultDocument::write_unit, &ResultDocument::write_stripe}, .timed = true},
      {.name = "erase_stream", .run = run_erase_stream, .needs = Needs::writes,
       .decides = Units{&ResultDocument::erase_block}, .timed = true, .after = summarize_write_counters},
      {.name = "write_parallelism", .run = run_write_parallelism_phase, .needs = Needs::writes, .timed = true},
      {.name = "open_units", .run = run_open_units_phase, .needs = Needs::writes,
       .skip_if = skip_open_units_if_no_room, .timed = true},
      {.name = "write_grid_in_cache", .run = run_in_cache_grid_phase, .needs = Needs::writes,
       .skip_if = skip_in_cache_grid_unless_cache_refills, .timed = true},
      {.name = "restore", .run = restore_window, .needs = Needs::writes, .runs_after_stop = true},
      {.name = "read_written", .run = reread_written_window, .needs = Needs::writes,
       .skip_if = skip_reread_if_page_found, .timed = true},
      {.name = "read_parallelism", .run = run_read_parallelism, .timed = true},
      {.name = "kernel_check", .run = check_kernel_values, .runs_after_stop = true},
      {.name = "firmware", .run = query_firmware_phase, .skip_if = skip_firmware_if_sim},
      {.name = "audit", .run = audit_layout_phase},
      {.name = "verdict", .run = verdict_phase, .runs_after_stop = true},
  };
  return phases;
}

// --write on a host-managed zoned device: the window phases are replaced by
// sequential writes into the empty zones the session chose, and the restore
// resets them (run/zoned_write_phase.h).
const std::vector<Phase>& zoned_characterize_phases() {
  static const std::vector<Phase> phases = {
      {.name = "pending_journals", .run = name_pending_journals, .skip_if = skip_journals_if_sim},
      {.name = "read_grid", .run = run_read_grid, .skip_if = skip_reads_if_nothing_written,
       .decides = Units{&ResultDocument::read_page}, .timed = true},
      {.name = "write_session", .run = open_write_session, .needs = Needs::writes},
      {.name = "zoned_write", .run = run_zoned_write, .needs = Needs::writes, .timed = true},
      {.name = "restore", .run = restore_window, .needs = Needs::writes, .runs_after_stop = true},
      {.name = "read_parallelism", .run = run_read_parallelism, .skip_if = skip_reads_if_nothing_written,
       .timed = true},
      {.name = "kernel_check", .run = check_kernel_values, .runs_after_stop = true},
      {.name = "firmware", .run = query_firmware_phase, .skip_if = skip_firmware_if_sim},
      {.name = "audit", .run = audit_layout_phase},
      {.name = "verdict", .run = verdict_phase, .runs_after_stop = true},
  };
  return phases;
}

const std::vector<Phase>& info_phases() {
  static const std::vector<Phase> phases = {
      {.name = "pending_journals", .run = name_pending_journals, .skip_if = skip_journals_if_sim},
      {.name = "firmware", .run = query_firmware_phase, .skip_if = skip_firmware_if_sim},
      {.name = "verdict", .run = verdict_phase},
  };
  return phases;
}

const std::vector<Phase>& audit_phases() {
  static const std::vector<Phase> phases = {
      {.name = "pending_journals", .run = name_pending_journals, .skip_if = skip_journals_if_sim},
      {.name = "saved_units", .run = take_saved_units, .skip_if = skip_saved_units_if_none},
      {.name = "audit", .run = audit_required_phase},
      {.name = "verdict", .run = verdict_phase},
  };
  return phases;
}

RunResult characterize(const Options& options, RunObserver& observer) {
  const auto started = std::chrono::steady_clock::now();
  Target target = open_target({.path = options.target, .open_for_io = false, .seed = options.seed});
  refuse_empty_target(target);
  check_region_alignment(target, options.region);
  WriteState write;
  if (options.write) {
    write.window = write_window(target, options);
    write.session = claim_for_writes(target, write.window, options);  // claims and checks; asks nothing yet
    if (write.session && write.session->zoned()) {
      const WritePlanSummary plan = write.session->summary();  // the window is the chosen zones' span
      write.window = {plan.offset, plan.length};
    }
  }
  open_engine(target, parse_engine(options.engine), options.write, options.seed, nvme_passthru_opener(),
              write.session ? write.session->device_fd() : -1);
  refuse_empty_target(target);  // the engine's size, from the kernel
  target.device->set_completion_spin(options.spin_us);
  auto counting = std::make_unique<CountingDevice>(std::move(target.device));
  const CountingDevice* own_io = counting.get();
  target.device = std::move(counting);
  ZonedReads zoned_reads;
  Options used = with_zoned_read_region(target, options, zoned_reads);
  FileReads file_reads = plan_file_reads(target, used.region, is_disk_image(target, used));
  if (file_reads.mapping) used.region = {file_reads.mapping->file_offset, file_reads.mapping->length};
  // A file too fragmented for the grid skips it (file_reads.skipped): no plan is needed then.
  GridPlan read_plan = file_reads.plan                  ? std::move(*file_reads.plan)
                       : !file_reads.skipped.empty() ? GridPlan{}
                                                     : plan_first_read_grid(target, used, options, zoned_reads);
  if (options.write) {
    // Every set-up refusal before the question, and the question before the
    // first write (run/write_setup.h).
    refuse_unplannable_writes(target, write.window, write.session.get());
    write.at_setup = write_counters_of(target);
    write.last_reading = write.at_setup;
    write.cap = confirm_writes(target, write.window, write.session.get(), options, write.at_setup);
  }
  // From here a signal stops the run between IOs (never mid-write): the
  // pipeline records it, the restore phase puts the window back, and the
  // document says what finished.
  const InterruptGuard signals;
  RunContext run(used, target, observer, {used.budget_s, used.write}, base_document(used, target));
  add_notes(run.doc, zoned_reads.notes);
  add_notes(run.doc, file_reads.notes);
  run.reads_written_data = zoned_reads.in_written_data;
  run.reads_skipped = zoned_reads.skipped.empty() ? file_reads.skipped : zoned_reads.skipped;
  run.write = std::move(write);
  run.read_plan = std::move(read_plan);
  run.cost_question = cost_question(run);
  run.own_io = own_io;
  const bool zoned = run.write.session && run.write.session->zoned();
  if (zoned) {
    const std::string why = "not measured: a zoned device takes only sequential writes into empty zones (zoned_write)";
    run.doc.write_unit.evidence = why;
    run.doc.write_stripe.evidence = why;
    run.doc.erase_block.evidence = why;
  }
  std::optional<Error> stop = run_phases(run, zoned ? zoned_characterize_phases() : characterize_phases());
  add_notes(run.doc, run_cautions(run.doc));
  run.doc.run = RunSummary{target.device->engine_description(), run.tally.ios, run.read_rounds,
                           run.tally.device_time_s, run.read_stop_reason, read_region(target, used, zoned_reads),
                           read_region_source(options, zoned_reads), run.read_content, file_reads.mapping};
  if (!file_reads.skipped.empty()) run.doc.run->read_region.reset();  // the grid did not run
  if (file_reads.mapping) run.doc.run->read_region_source = "file_extents";
  run.doc.duration_s = seconds_since(started);
  run.doc.ended_at = utc_now_text(kIso8601Utc);
  return {std::move(run.doc), std::move(stop)};
}

ResultDocument info(const Options& options) {
  return untimed_run(options, "info does no timing IO", info_phases());
}

std::string restore_from_journal(const Options& options) {
  const Confirmation confirmation{options.yes, ::isatty(STDIN_FILENO) != 0, stdin, stderr};
  if (options.forget) {
    if (options.partial || !options.device.empty()) {
      throw Error(ErrorCategory::usage, "restore --forget writes nothing to a device: --partial and --device do not "
                                        "apply to it");
    }
    return forget_journal_entry(default_journal_index(), options.target, confirmation);
  }
  return restore_journal({options.target, options.device, options.partial, options.force, confirmation}).message;
}

ResultDocument audit(const Options& options) {
  return untimed_run(options, "audit does no timing IO (run ssdprobe on the target to check against the measured "
                              "page and to price misalignment)", audit_phases(), true);
}

}  // namespace ssdprobe
