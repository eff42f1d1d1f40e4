#include "run/pipeline.h"

#include <algorithm>

#include <exception>
#include <fmt/format.h>

#include "core/cpu_time.h"
#include "device/counting_device.h"
#include "device/psync_device.h"  // monotonic_raw_ns
#include "run/io_sample.h"
#include "run/write_phases.h"
#include "run/write_setup.h"

namespace ssdprobe {
namespace {

// A write phase --max-write-bytes leaves out is skipped whatever it would
// find (run/write_cap.h), with the reason also among the notes.
std::optional<std::string> missing_need(const Phase& phase, RunContext& run) {
  if (phase.needs == Needs::writes && !run.options.write) return "write probes were not enabled (--write)";
  if (phase.needs != Needs::writes) return std::nullopt;
  auto capped = skipped_by_cap(run.write.cap, phase.name);
  auto& notes = run.doc.notes;  // the grid inside the cache shares the cache probe's reason: one note
  if (capped && std::find(notes.begin(), notes.end(), *capped) == notes.end()) notes.push_back(*capped);
  return capped;
}

// Runs one phase; an exception becomes the Error it stops the run with.
PhaseOutcome run_one(const Phase& phase, RunContext& run, std::optional<Error>& thrown) {
  try {
    return phase.run(run);
  } catch (const Error& e) {
    thrown = e;
  } catch (const std::exception& e) {
    thrown = Error(ErrorCategory::internal, e.what());
  } catch (...) {
    thrown = Error(ErrorCategory::internal, "an exception that is not a std::exception");
  }
  const bool signal = thrown->category() == ErrorCategory::interrupted;
  return {signal ? PhaseState::interrupted : PhaseState::failed, thrown->what(), 0.0, std::nullopt};
}

// Runs a timed phase between two samples of the disk's counters.
PhaseOutcome run_sampled(const Phase& phase, RunContext& run, std::optional<Error>& thrown,
                         std::optional<OtherIo>& other_io) {
  const std::optional<IoSample> start = phase.timed ? sample_io(run) : std::nullopt;
  PhaseOutcome outcome = run_one(phase, run, thrown);
  const std::optional<IoSample> end = start ? sample_io(run) : std::nullopt;
  if (end) other_io = other_io_between(run, *start, *end);
  return outcome;
}

// "interrupted by signal 2 during the write grid": how the run stopped, for
// the phases after it and for the units it leaves unmeasured.
std::string stop_text(const Error& stop, const char* phase) {
  const bool signal = stop.category() == ErrorCategory::interrupted;
  return fmt::format("{} during the {} phase", signal ? std::string(stop.what()) : "failed: " + std::string(stop.what()),
                     phase);
}

// The clocks and counters so far, to charge each phase what it cost the
// host (the engine's CPU per IO: polling or sleeping shows there).
PhaseHostCost host_cost(const RunContext& run) {
  PhaseHostCost cost;
  cost.wall_s = static_cast<double>(monotonic_raw_ns()) / 1e9;
  cost.cpu_s = process_cpu_seconds();
  if (run.own_io != nullptr) {
    cost.ios = run.own_io->counts().reads + run.own_io->counts().writes;
    cost.waits = run.own_io->wait_counts();
  }
  return cost;
}

PhaseHostCost host_cost_between(const PhaseHostCost& before, const PhaseHostCost& after) {
  PhaseHostCost cost;
  cost.wall_s = std::max(0.0, after.wall_s - before.wall_s);
  cost.cpu_s = std::max(0.0, after.cpu_s - before.cpu_s);
  if (before.ios && after.ios) cost.ios = *after.ios - *before.ios;
  if (before.waits && after.waits) cost.waits = wait_counts_between(*before.waits, *after.waits);
  return cost;
}

void mark_unmeasured(RunContext& run, const Phase& phase, const std::string& why) {
  for (DetectedUnit ResultDocument::*member : phase.decides) {
    DetectedUnit& unit = run.doc.*member;
    if (unit.bytes) continue;
    unit = DetectedUnit{};
    unit.evidence = "not measured: the run stopped before this was settled (" + why + ")";
  }
}

// How much had been written when a probe phase started or ended: the
// engine's own writes and, on a drive whose write counters answered at
// set-up, those counters (a drive without them is not asked again; one
// that stops answering gives no deltas, never a failed run).
struct WriteMark {
  uint64_t own_bytes = 0;
  SmartWriteCounters counters;
};

WriteMark write_mark(const RunContext& run) {
  WriteMark mark;
  if (run.own_io != nullptr) mark.own_bytes = run.own_io->counts().write_bytes;
  if (run.write.at_setup.host_source.empty()) return mark;
  try {
    mark.counters = write_counters_of(run.target);
  } catch (const std::exception&) {
    mark.counters = {};
  }
  return mark;
}

}  // namespace

std::optional<Error> run_phases(RunContext& run, const std::vector<Phase>& phases) {
  std::optional<Error> stop;
  std::string stopped_where;  // "interrupted by signal 2 during the write_grid phase"
  // The reading that closed the phase just run, when it wrote in the window:
  // the next such phase opens with it (nothing has written since), so the
  // counters are read once at each boundary.
  std::optional<WriteMark> closing_mark;
  for (const Phase& phase : phases) {
    PhaseRecord record{phase.name, PhaseState::done, "", 0.0, std::nullopt, std::nullopt, std::nullopt};
    std::optional<std::string> skip = missing_need(phase, run);
    if (!skip && stop && !phase.runs_after_stop) {
      record.state = PhaseState::not_run;
      record.reason = stopped_where;
      mark_unmeasured(run, phase, stopped_where);
    } else if (skip || (phase.skip_if != nullptr && (skip = phase.skip_if(run)))) {
      record.state = PhaseState::skipped;
      record.reason = *skip;
    } else {
      std::optional<Error> thrown;
      // The write counters are read outside the phase's own cost.
      std::optional<WriteMark> written_before;
      if (writes_in_window(phase.name)) written_before = closing_mark ? *closing_mark : write_mark(run);
      closing_mark.reset();
      const PhaseHostCost before = host_cost(run);
      const PhaseOutcome outcome = run_sampled(phase, run, thrown, record.other_io);
      record.host = host_cost_between(before, host_cost(run));
      if (outcome.state != PhaseState::skipped && written_before) {
        const WriteMark after = write_mark(run);
        record.writes = write_phase_counts(written_before->counters, after.counters,
                                           counter_delta(written_before->own_bytes, after.own_bytes), "");
        if (!after.counters.host_source.empty()) run.write.last_reading = after.counters;
        closing_mark = after;
      } else if (outcome.bytes_written_directly) {
        // The restore: it must start at once after a stop, so no counters
        // are read around it; its bytes are those it reports putting back.
        record.writes = write_phase_counts({}, {}, *outcome.bytes_written_directly, "");
      }
      record.state = outcome.state;
      record.reason = outcome.reason;
      record.device_time_s = outcome.device_time_s;
      if (thrown) {
        if (!stop) {
          stopped_where = stop_text(*thrown, phase.name);
          run.stopped_in = phase.name;
        }
        stop = std::move(thrown);  // a later failure (the restore's) replaces the first
        run.stopped_by = &*stop;
        mark_unmeasured(run, phase, stopped_where);
      }
    }
    const bool finished = record.state == PhaseState::done || record.state == PhaseState::budget;
    run.doc.phases.push_back(std::move(record));
    if (finished && phase.after != nullptr) phase.after(run);
  }
  return stop;
}

}  // namespace ssdprobe
