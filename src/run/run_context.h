// What the phases of one run share: the options, the target, the document
// they fill, the budget and what has been spent of it, and the write
// phases' state from the journal to the restore.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "device/target.h"
#include "firmware/write_counters.h"
#include "probes/grid_plan.h"
#include "run/cost_questions.h"
#include "report/result.h"
#include "run/run_budget.h"
#include "run/run_observer.h"
#include "run/run_options.h"
#include "run/write_cap.h"
#include "safety/write_session.h"

namespace ssdprobe {

class CountingDevice;

// From the write session phase to the restore (run/write_phases.h).
struct WriteState {
  Region window;                         // the only bytes the write phases may write
  std::unique_ptr<WriteSession> session; // null on simulated drives: nothing real to preserve
  double budget_s = 0.0;                 // the write phases' share of --budget
  double device_time_before_s = 0.0;     // the tally before the write grid
  // The drive's write counters read at set-up (before the first write: the
  // SLC cache probe's baseline), and the last reading since: the pipeline
  // reads them around each phase that writes in the window (phases[].writes).
  SmartWriteCounters at_setup, last_reading;
  // --max-write-bytes: the write phases it leaves out (run/write_cap.h).
  WriteCapPlan cap;
  double grid_elapsed_s = 0.0;
  double stream_elapsed_s = 0.0;
  // Set by the SLC cache probe: the budget of the grid inside the cache
  // (kept out of the later phases'); 0 when it cannot run.
  double in_cache_grid_s = 0.0;
  // From the save to the restore, output to a closed pipe is a failed
  // (ignored) write, not a SIGPIPE that would end the run unrestored.
  std::unique_ptr<SigpipeIgnored> no_sigpipe;
};

struct RunContext {
  RunContext(const Options& run_options, Target& run_target, RunObserver& run_observer, RunBudget run_budget,
             ResultDocument start = {})
      : options(run_options), target(run_target), observer(run_observer), budget(run_budget), doc(std::move(start)) {}

  const Options& options;
  Target& target;
  RunObserver& observer;
  RunBudget budget;
  RunTally tally;
  ResultDocument doc;
  WriteState write;
  // The first read grid's plan, made at set-up: a --region the grid cannot
  // use is refused before any IO, with no document.
  GridPlan read_plan;
  // The read probes are kept to a zoned device's written data, below its
  // write pointers (run/zoned_read_region.h).
  bool reads_written_data = false;
  // Why the read phases are skipped: a zoned --write run on a device with
  // nothing written (empty: they run).
  std::string reads_skipped;
  // The audit's cost question the read grids answer on (run/cost_questions.h).
  CostQuestion cost_question;
  // The first read grid, for run.rounds and run.stop_reason.
  int read_rounds = 0;
  GridStopReason read_stop_reason = GridStopReason::round_limit;
  // The read grids' verdicts (the first, and the re-read of the written
  // window when it ran): the document keeps only the one that stands, and
  // the note on a read page they did not show (run/read_page_note.h) reads
  // both.
  std::optional<UnitVerdict> read_verdict, reread_verdict;
  // What the first grid's space held, when the grid found no page and it
  // was sampled (probes/read_content_probe.h).
  std::optional<ReadContent> read_content;
  // Set by the pipeline when a phase stopped the run: the phases that run
  // after a stop (the restore) read them to say why they run.
  const Error* stopped_by = nullptr;
  std::string stopped_in;  // the name of the phase that stopped it
  // The engine, counting what the run issues (null: untimed runs), for
  // the other IO on the disk during each timed phase (run/io_sample.h).
  const CountingDevice* own_io = nullptr;
};

}  // namespace ssdprobe
