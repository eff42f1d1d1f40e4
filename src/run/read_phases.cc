#include "run/read_phases.h"

#include <fmt/format.h>

#include "analysis/mismatches.h"
#include "core/units.h"
#include "probes/grid_plan.h"
#include "probes/read_content_probe.h"
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

// A grid that found no page over space that reads as never written rules
// nothing out: the drive need not have sensed a page to answer it.
void answer_unread_space(UnitVerdict& verdict, const ReadContent& content) {
  if (verdict.state != UnitState::absent) return;
  verdict.state = UnitState::undetermined;
  verdict.evidence = fmt::format(
      "not determined: these reads were answered without reading flash: unwritten or trimmed space ({} reads of "
      "the grid's space, {}, returned only bytes 0x{:02x}, as a drive answers never-written or trimmed blocks); "
      "over such space a flat grid shows no page whatever the flash has (on data, this grid shows any page up to "
      "{})",
      content.reads, format_size(content.bytes), *content.only_byte,
      verdict.searched_up_to_bytes ? format_size(*verdict.searched_up_to_bytes) : std::string("the largest searched"));
  verdict.searched_up_to_bytes.reset();
}

}  // namespace

PhaseOutcome run_read_grid(RunContext& run) {
  GridProbeResult read = read_grid(run, run.read_plan, run.budget.read_grid_s());
  if (read.verdict.state != UnitState::found && !run.reads_written_data) {
    run.read_content = sample_read_content(*run.target.device, run.read_plan);
    if (run.read_content->blank()) answer_unread_space(read.verdict, *run.read_content);
  }
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
  // Over space that read as never written, the first grid decided nothing:
  // the written window's answer stands, found or ruled out.
  const bool first_unread = run.read_content && run.read_content->blank();
  if (again.verdict.bytes || (first_unread && again.verdict.state == UnitState::absent)) {
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
                                  run.reads_written_data, run.read_content};
  if (auto note = read_page_note(doc, evidence)) doc.notes.push_back(*note);
  doc.mismatches = find_mismatches(doc.topology, {&doc.read_page, &doc.write_unit, &doc.erase_block});
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
