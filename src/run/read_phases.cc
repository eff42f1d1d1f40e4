#include "run/read_phases.h"

#include "analysis/mismatches.h"
#include "probes/grid_plan.h"
#include "run/document.h"
#include "run/read_page_note.h"

namespace ssdprobe {
namespace {

GridProbeResult read_grid(RunContext& run, const GridPlan& plan, double budget_s) {
  GridProbeOptions probe;
  const CostQuestion& question = run.cost_question;
  if (!question.starts.empty()) {
    probe.open_rows = [&question](const LatencyGrid& grid, const UnitVerdict& verdict) {
      return open_cost_rows(grid, verdict, question);
    };
  }
  probe.analysis = read_page_options(plan.candidates, run.options.seed);
  probe.budget_s = budget_s;
  probe.queue_depth = run.options.queue_depth;
  probe.seed = run.options.seed;
  probe.progress = [&run](const GridProbeProgress& p) { run.observer.grid_progress(p); };
  GridProbeResult result = run_grid_probe(*run.target.device, plan, probe);
  run.observer.finish();
  return result;
}

}  // namespace

PhaseOutcome run_read_grid(RunContext& run) {
  GridProbeResult read = read_grid(run, run.read_plan, run.budget.read_grid_s());
  run.tally.ios += read.ios;
  run.tally.device_time_s += read.elapsed_s;
  run.read_rounds = read.rounds;
  run.read_stop_reason = read.stop_reason;
  run.read_verdict = read.verdict;
  const PhaseOutcome outcome = PhaseOutcome::of_grid(read);
  record_read(run.doc, std::move(read), "read", run.options.queue_depth, "");
  return outcome;
}

std::optional<std::string> skip_reread_if_page_found(const RunContext& run) {
  if (run.doc.read_page.bytes) return std::string("the first read grid found the read page");
  return std::nullopt;
}

PhaseOutcome reread_written_window(RunContext& run) {
  GridProbeResult again;
  try {
    again = read_grid(run, plan_read_grid(grid_plan_input(run.target, run.write.window)),
                      run.budget.read_written_s(run.tally));
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::target) throw;
    return PhaseOutcome::skipped(e.what());  // the window is too small for a read grid: keep the first answer
  }
  run.tally.ios += again.ios;
  run.tally.device_time_s += again.elapsed_s;
  run.reread_verdict = again.verdict;
  const PhaseOutcome outcome = PhaseOutcome::of_grid(again);
  if (again.verdict.bytes) {
    record_read(run.doc, std::move(again), "read-written", run.options.queue_depth,
                "read inside the write window after the write probes wrote it: the first read grid, over "
                "space that may never have been written, found no page");
  } else {
    record_read_grid(run.doc, std::move(again), "read-written", run.options.queue_depth);
  }
  return outcome;
}

PhaseOutcome check_kernel_values(RunContext& run) {
  ResultDocument& doc = run.doc;
  const ReadPageEvidence evidence{run.read_verdict, run.reread_verdict, run.options.write, run.options.queue_depth,
                                  run.reads_written_data};
  if (auto note = read_page_note(doc, evidence)) doc.notes.push_back(*note);
  doc.mismatches = find_mismatches(doc.topology, {&doc.read_page, &doc.write_unit, &doc.erase_block});
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
