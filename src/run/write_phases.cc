#include "run/write_phases.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/stats.h"
#include "analysis/throughput_drop.h"
#include "analysis/write_stalls.h"
#include "core/block_math.h"
#include "core/error.h"
#include "core/output.h"
#include "core/shell_command.h"
#include "core/units.h"
#include "firmware/firmware_query.h"
#include "probes/erase_stream_probe.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"
#include "run/document.h"
#include "run/parallelism_section.h"
#include "run/slc_cache_phase.h"
#include "run/write_bound.h"

namespace ssdprobe {
namespace {

WriteProbeSummary& summary(RunContext& run) { return *run.doc.write_probe; }

// A block device or partition: SMART write counters apply.
bool real_drive(const RunContext& run) {
  return run.target.kind == TargetKind::block || run.target.kind == TargetKind::partition;
}

}  // namespace

// A drive that changed state during the grid (a cache running out, garbage
// collection starting) moves every cell of a round together: the round
// drift. Its correction keeps the fit honest to first order; a shift of a
// quarter of a typical cell or more says the answer mixes two states.
void mark_regime_shift(ResultDocument& doc, DetectedUnit& unit, const GridProbeResult& grid, const char* grid_name) {
  std::vector<double> medians;
  for (const auto& cell : grid.grid.samples) {
    if (!cell.empty()) medians.push_back(median(cell));
  }
  if (medians.empty() || grid.round_shifts_us.empty()) return;
  const double typical = median(medians);
  double largest = 0.0;
  for (double shift : grid.round_shifts_us) largest = std::max(largest, std::abs(shift));
  if (typical <= 0.0 || largest < 0.25 * typical) return;
  doc.notes.push_back(fmt::format(
      "in the {}, the later rounds ran {:.0f} % of a typical cell away from the first round: the drive changed state "
      "while it was measured (an SLC cache running out, garbage collection); each round was put back on the first "
      "round's footing, but the write unit mixes two states", grid_name, 100.0 * largest / typical));
  unit.regime = "mixed";
}

GridPlan write_grid_plan(const RunContext& run) { return write_grid_plan(run.target, run.write.window); }

GridPlan write_grid_plan(const Target& target, const Region& window) {
  return plan_write_grid(grid_plan_input(target, window));
}

GridProbeResult run_write_grid_probe(RunContext& run, const GridPlan& plan, const char* name, double budget_s,
                                     uint64_t max_bytes) {
  GridProbeOptions probe;
  probe.op = IoOp::write;
  probe.name = name;
  probe.analysis = write_unit_options(plan.candidates, run.options.seed);
  probe.budget_s = budget_s;
  probe.queue_depth = 1;  // a write unit shows in one write's latency, not in overlap
  probe.max_bytes = max_bytes;
  probe.seed = run.options.seed;
  probe.progress = [&run](const GridProbeProgress& p) { run.observer.grid_progress(p); };
  return run_grid_probe(*run.target.device, plan, probe);
}

namespace {

// The timed pass of the stream, checked the way the cache probe checks its
// fill: writes that slowed down for good partway through (a cache running
// out, garbage collection that did not stop) mean the stalls before and
// after are two drives' stalls.
void note_stream_regime(ResultDocument& doc, const EraseStreamResult& stream) {
  const auto& latency = stream.stream.latency_us;
  const auto drop = find_sustained_drop(latency);
  if (!drop) return;
  doc.notes.push_back(fmt::format(
      "the erase stream's timed writes slowed from a median {:.0f} us to {:.0f} us after {} and stayed slower: the "
      "drive changed state during the stream (an SLC cache running out, garbage collection), so its stalls come "
      "from two states", drop->before_median_us, drop->after_median_us,
      format_size(drop->index * stream.stream.chunk_bytes)));
  doc.erase_block.regime = "mixed";
}

// The stripe beside the write unit, measured by the same grid in the same
// drive state; its tie to the parallelism probe comes once that has run.
void record_stripe(ResultDocument& doc, const StripeVerdict& s) {
  doc.write_stripe = {s.bytes, s.state, s.confidence, s.evidence, {}, doc.write_unit.device_state,
                      s.searched_up_to_bytes, {}, {}, doc.write_unit.regime, {}, 0.0, {}};
  doc.write_stripe_detail = {};
  if (s.bytes) doc.write_stripe_detail = {.program_unit_bytes = s.bytes.value() / s.units, .units = s.units,
                                          .parallel_units = {}, .parallel_units_from = {}, .agrees = {}};
}

}  // namespace

// The write window from its first byte whose disk offset is a multiple of
// the write unit: a stream that starts off the unit writes a partial unit
// with every write (the 96 KiB writes of a 48 KiB unit from a 1 MiB start
// touch three units each), and its stalls then come at the period of the
// units touched, not of the erase block.
Region unit_aligned(const Region& window, uint64_t unit, uint64_t disk_start) {
  const uint64_t first = align_up(disk_start + window.offset, unit) - disk_start;
  const uint64_t end = window.offset + window.length;
  return first >= end ? window : Region{first, end - first};
}

namespace {

EraseStreamResult erase_stream(RunContext& run, double budget_s) {
  EraseStreamOptions stream;
  stream.budget_s = budget_s;
  // Whole write units per write (a stream of partial units would measure
  // read-modify-write, not the erase block), a power of two of them, at
  // least 64 KiB: erase blocks hold a power-of-two multiple of pages far
  // more often than not, so the chunk divides the block and every block
  // starts on a write (a 24 KiB unit gives 96 KiB writes, not 72 KiB).
  const uint64_t unit = run.doc.write_unit.bytes.value_or(run.target.device->limits().logical_block);
  stream.chunk_bytes = unit;
  while (stream.chunk_bytes < 64 * 1024) stream.chunk_bytes *= 2;
  stream.window = unit_aligned(run.write.window, unit, run.target.topology.partition_start_bytes);
  stream.seed = run.options.seed;
  stream.progress = [&run](int pass, uint64_t done, uint64_t total) {
    run.observer.message(fmt::format("sequential stream: pass {} of 2 ({}), {}/{} writes", pass,
                                     pass == 1 ? "preconditioning" : "timed", done, total));
  };
  return run_erase_stream(*run.target.device, stream);
}

// What the phase named wrote (phases[].writes, the counters read around it
// by the pipeline), described as `pattern`; nothing when it wrote nothing.
WritePhaseCounts phase_writes(const ResultDocument& doc, const char* name, const char* pattern) {
  const PhaseRecord* phase = doc.phase_named(name);
  if (phase == nullptr || !phase->writes) return {};
  WritePhaseCounts counts = *phase->writes;
  counts.pattern = pattern;
  return counts;
}

// Writes the engine could not reap (it gave up after 30 s) may still land:
// restoring now could be overwritten by one. The journal stays; the kernel
// finishes or cancels them when this process exits.
PhaseOutcome leave_journal_for_later(RunContext& run, unsigned outstanding) {
  run.observer.finish();
  const std::string journal = printable(shell_quote(run.write.session->journal_path().string()));
  print_quietly(stderr, fmt::format("ssdprobe: write probes stopped with {} request(s) still in flight that could not "
                                    "be reaped; the original content was NOT written back yet: once this process has "
                                    "exited, run: ssdprobe restore {}\n", outstanding, journal));
  return PhaseOutcome::failed(fmt::format("{} request(s) still in flight: not written back; run ssdprobe restore {}",
                                          outstanding, journal), 0.0);
}

// Whether a write phase started: one that ran, to its end or not. A
// skipped one returned before its first write; one not run never began.
bool write_phase_started(const ResultDocument& doc) {
  return std::any_of(doc.phases.begin(), doc.phases.end(), [](const PhaseRecord& p) {
    return writes_in_window(p.name) && p.state != PhaseState::skipped && p.state != PhaseState::not_run;
  });
}

// A write phase that a signal or an error stopped took its count of bytes
// written with it: say so rather than let bytes_written look complete.
void note_uncounted_writes(RunContext& run) {
  const std::string& phase = run.stopped_in;
  if (!writes_in_window(phase)) return;
  run.doc.notes.push_back(fmt::format("write_probe.bytes_written counts only the write phases that finished: the {} "
                                      "phase wrote more inside the window before it was stopped (restored with the "
                                      "rest; phases[].writes counts it)", phase));
}

// Once the window may hold test data, every failure to put it back must say
// where the original is and the command that restores it (issue 18: a
// restore that ran out of memory said only "internal error").
std::optional<RestoreReport> restore_or_name_journal(WriteSession& session) {
  const std::string journal = printable(session.journal_path().string());
  auto kept = [&](const std::string& what) {
    return fmt::format("the window was NOT restored ({}); its original content is kept in the journal {}: run "
                       "ssdprobe restore {}", what, journal, printable(shell_quote(session.journal_path().string())));
  };
  try {
    return session.restore();
  } catch (const Error& e) {
    throw Error(e.category(), kept(e.what()));
  } catch (const std::exception& e) {
    throw Error(ErrorCategory::internal, kept(e.what()));
  }
}

std::string nothing_saved_reason(const RunContext& run) {
  if (!run.write.session) return "a simulated drive: nothing real was written";
  if (!run.options.preserve) return "--no-preserve: the window was not saved";
  return "nothing was saved before the run stopped";
}

}  // namespace

bool writes_in_window(std::string_view phase) {
  static const std::set<std::string, std::less<>> writing = {
      "slc_cache", "write_grid", "erase_stream", "write_parallelism", "open_units", "write_grid_in_cache",
      "zoned_write"};
  return writing.contains(phase);
}

PhaseOutcome open_write_session(RunContext& run) {
  WriteState& w = run.write;
  w.budget_s = run.budget.write_phases_s(run.tally.device_time_s);
  WriteProbeSummary started;
  started.offset = w.window.offset;
  started.length = w.window.length;
  started.preserved = w.session != nullptr && run.options.preserve;
  started.announced_bytes = w.cap.announced;
  run.doc.write_probe = started;
  // Replaced when the open_units phase runs; its record says why it did not.
  run.doc.open_units.verdict.evidence = "not measured: the open_units phase did not run (phases says why)";
  w.no_sigpipe = std::make_unique<SigpipeIgnored>();
  if (w.session && w.session->zoned()) {
    run.observer.message(fmt::format("journaling the {} zones to reset to {}", w.session->write_zones().size(),
                                     run.options.journal_dir));
    w.session->save();
    summary(run).journal = w.session->journal_path().string();
  } else if (w.session) {
    run.observer.message(fmt::format("saving {} of original content to {}", format_size(w.window.length),
                                     run.options.journal_dir));
    w.session->save();
    summary(run).journal = w.session->journal_path().string();
  }
  return PhaseOutcome::done();
}

PhaseOutcome run_write_grid(RunContext& run) {
  WriteState& w = run.write;
  w.device_time_before_s = run.tally.device_time_s;
  GridProbeResult grid =
      run_write_grid_probe(run, write_grid_plan(run), "write", run.budget.write_grid_s(w.budget_s), kWriteGridByteCap);
  w.grid_elapsed_s = grid.elapsed_s;
  run.tally.ios += grid.ios;
  const UnitVerdict& v = grid.verdict;
  run.doc.write_unit = {v.bytes, v.state, v.confidence, v.evidence, v.levels, "random writes inside the write window",
                        v.searched_up_to_bytes, v.fit_dispersion, {}, write_regime(run.doc),
                        best_candidate(v), best_candidate_support(v), {}};
  mark_regime_shift(run.doc, run.doc.write_unit, grid, "write grid");
  record_stripe(run.doc, v.stripe);
  summary(run).grid_stalls = classify_write_stalls(grid.grid);
  run.doc.grids.push_back(GridReport{"write", "write", 1, std::move(grid.grid), std::move(grid.round_shifts_us),
                                     std::move(grid.corrected), {}});
  add_notes(run.doc, grid.plan.notes);
  summary(run).bytes_written += grid.bytes_issued;
  summary(run).grid_stop_reason = grid.stop_reason;
  summary(run).grid_rounds = grid.rounds;
  return PhaseOutcome::of_grid(grid);
}

// An erase block that the stream's finding no period does not rule out:
// not determined, and no reach to speak of.
static void leave_open(DetectedUnit& erase_block) {
  erase_block.state = UnitState::undetermined;
  erase_block.searched_up_to_bytes.reset();
}

// A drive whose writes stall at random on garbage collection (the write
// grid's heavy stalls, analysis/write_stalls.h) hides an erase block's
// periodic stalls among them: the stream finding no period rules nothing
// out there.
static void not_ruled_out_among_stalls(DetectedUnit& erase_block, const std::optional<WriteStalls>& stalls) {
  if (!stalls || !stalls->heavy()) return;
  leave_open(erase_block);
  erase_block.evidence += fmt::format("; not ruled out: {} of the write grid's {} writes stalled at random (garbage "
                                      "collection), and stalls that many can hide an erase block's",
                                      stalls->stalled, stalls->writes);
}

// Stalls that recur at a period, on too few of its writes to name it, rule
// no erase block out either: the period is the candidate a quieter drive
// would confirm.
static void not_ruled_out_where_stalls_recur(DetectedUnit& erase_block, const EraseBlockVerdict& e) {
  leave_open(erase_block);
  erase_block.best_candidate_bytes = e.recurs_every_bytes;
  erase_block.best_candidate_support = e.recurring_share;
}

PhaseOutcome run_erase_stream(RunContext& run) {
  WriteState& w = run.write;
  EraseStreamResult stream = erase_stream(run, run.budget.erase_stream_s(w.budget_s, w.grid_elapsed_s));
  w.stream_elapsed_s = stream.elapsed_s;
  run.tally.ios += stream.stream.latency_us.size() * 2;
  // The grid and the stream are added as one sum, as they always were.
  run.tally.device_time_s = w.device_time_before_s + (w.grid_elapsed_s + stream.elapsed_s);
  const EraseBlockVerdict& e = stream.verdict;
  // No stall up to the searched size is an absence within that range only;
  // the evidence and searched_up_to_bytes say how far that is.
  run.doc.erase_block = {e.bytes, e.bytes ? UnitState::found : UnitState::absent, e.confidence, e.evidence, {},
                         stream.device_state, e.searched_up_to_bytes, {}, {}, write_regime(run.doc), {}, 0.0, {}};
  if (!e.bytes) not_ruled_out_among_stalls(run.doc.erase_block, summary(run).grid_stalls);
  if (e.recurs_every_bytes) not_ruled_out_where_stalls_recur(run.doc.erase_block, e);
  // Nor does a stream whose writes spread so widely that an erase's stall
  // would hide among them (every write waiting a different while on the
  // drive's background work).
  if (e.spread_hides_stalls) leave_open(run.doc.erase_block);
  // The size ruled out, or the size the spread hides (unit_answers.h asks
  // for an idle drive then); nothing when another cause left it open. The
  // verdict has a floor only when it found no period and no recurrence.
  if (e.stall_floor_us > 0 && (run.doc.erase_block.state == UnitState::absent || e.spread_hides_stalls)) {
    run.doc.erase_block.stall_floor_us = e.stall_floor_us;
  }
  note_stream_regime(run.doc, stream);
  WriteProbeSummary& s = summary(run);
  s.bytes_written += stream.bytes_written;
  s.stream_chunk_bytes = stream.stream.chunk_bytes;
  s.stream_offset = stream.window.offset;
  s.streamed_bytes = stream.streamed_bytes;
  s.stream_cut_to_budget = stream.cut_to_budget;
  s.stream_latency_us = std::move(stream.stream.latency_us);
  if (!stream.cut_to_budget) return PhaseOutcome::done(stream.elapsed_s);
  return PhaseOutcome::cut_by_budget(
      fmt::format("--budget allowed two passes over {} of the window", format_size(stream.streamed_bytes)),
      stream.elapsed_s);
}

// The SLC cache fill's, the write grid's and the stream's counter deltas
// (write_probe.write_amplification), from those phases' records; the
// counters' sources, notes and FDP reclaim unit from the last reading.
void summarize_write_counters(RunContext& run) {
  if (!real_drive(run) || !run.doc.write_probe) return;
  const ResultDocument& doc = run.doc;
  WriteProbeSummary& s = summary(run);
  s.write_amplification = combine_write_phases(
      run.write.last_reading, phase_writes(doc, "write_grid", "sub-unit and misaligned random writes"),
      phase_writes(doc, "erase_stream", "aligned whole-unit sequential writes"),
      phase_writes(doc, "slc_cache", "SLC cache probe's sequential fills of the window"));
  if (s.write_amplification->reclaim_unit_bytes)
    run.doc.notes.push_back(reclaim_unit_note(*s.write_amplification->reclaim_unit_bytes, doc.erase_block.bytes));
}

// After the stream (its writes have a record of their own, phases[].writes,
// not the grid's or the stream's) and before the restore: random writes and
// write pairs inside the window only, the bytes the session saved.
PhaseOutcome run_write_parallelism_phase(RunContext& run) {
  const WriteState& w = run.write;
  run.observer.message("parallelism probe: queue-depth sweep and stride pairs of random writes in the window");
  ParallelismSection section =
      run_write_parallelism(run.target, run.options, w.window, run.doc.read_page.bytes,
                            run.budget.write_parallelism_s(w.budget_s, w.grid_elapsed_s, w.stream_elapsed_s));
  run.tally.parallelism_time_s += section.device_time_s;
  summary(run).bytes_written += section.bytes_issued;
  run.doc.write_parallelism = std::move(section);
  return parallelism_outcome(run, *run.doc.write_parallelism, "the write parallelism probe",
                             "the other results are complete and the window was restored as usual");
}

// Restore first, print after: nothing, not even a progress line to a
// terminal that hung up, may come between a failure and the restore.
PhaseOutcome restore_window(RunContext& run) {
  WriteState& w = run.write;
  if (run.stopped_by != nullptr) note_uncounted_writes(run);
  if (!w.session || !w.session->saved()) {
    run.observer.finish();
    // Stopped before the first write (while saving the window, say): the
    // window holds what it held, and the document must not read as a
    // restore that failed.
    if (run.doc.write_probe && !write_phase_started(run.doc)) {
      summary(run).nothing_written = true;
      summary(run).restore_message = "nothing was written, nothing to restore";
    }
    return PhaseOutcome::skipped(nothing_saved_reason(run));
  }
  if (run.stopped_by != nullptr) {
    const unsigned outstanding = run.target.device ? run.target.device->abandoned_requests() : 0;
    if (outstanding > 0) return leave_journal_for_later(run, outstanding);
  } else {
    run.observer.message("restoring the original content");
  }
  const auto restored = restore_or_name_journal(*w.session);
  run.observer.finish();
  summary(run).restored = restored.has_value();
  summary(run).restore_message = restored ? restored->message : "";
  if (restored) summary(run).restore_bytes_written = restored->bytes_written;
  if (run.doc.zoned_write) {  // the zones' reset was verified by a fresh zone report (safety/zone_reset.h)
    run.doc.zoned_write->reset_verified = restored.has_value();
    run.doc.zoned_write->reset_message = restored ? restored->message : "";
  }
  if (restored && restored->journal_kept) run.observer.warn(restored->message);
  if (run.stopped_by != nullptr) {
    print_quietly(stderr, fmt::format("ssdprobe: write probes stopped; {}\n",
                                      restored ? restored->message : "nothing to restore"));
  }
  w.no_sigpipe.reset();
  // A failed restore knows no count: no phases[].writes then.
  return restored ? PhaseOutcome::done_writing_directly(restored->bytes_written) : PhaseOutcome::done();
}

}  // namespace ssdprobe
