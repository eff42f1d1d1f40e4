#include "cli/write_run.h"

#include <algorithm>
#include <fmt/format.h>
#include <utility>

#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "cli/parallelism_run.h"
#include "firmware/firmware_query.h"
#include "probes/grid_plan.h"
#include "core/interrupt.h"

namespace ssdprobe {
namespace {

// At most this much is written by the write grid (the stream adds two passes
// over the window): enough for a verdict, little wear.
constexpr uint64_t kWriteGridByteCap = 1ull << 30;

GridProbeResult write_grid(Target& target, const Region& window, const Options& options, double budget_s,
                           ProgressLine& progress) {
  const GridPlan plan = plan_write_grid(grid_plan_input(target, window));
  GridProbeOptions probe;
  probe.op = IoOp::write;
  probe.name = "write";
  probe.analysis = write_unit_options(plan.candidates, options.seed);
  probe.budget_s = budget_s;
  probe.queue_depth = 1;  // a write unit shows in one write's latency, not in overlap
  probe.max_bytes = kWriteGridByteCap;
  probe.seed = options.seed;
  probe.progress = [&progress](const GridProbeProgress& p) { progress.update(p); };
  return run_grid_probe(*target.device, plan, probe);
}

EraseStreamResult erase_stream(Target& target, const Region& window, const std::optional<uint64_t>& write_unit,
                               const Options& options, double budget_s, ProgressLine& progress) {
  EraseStreamOptions stream;
  stream.window = window;
  stream.budget_s = std::max(budget_s, 0.0);
  // Whole write units per write (a stream of partial units would measure
  // read-modify-write, not the erase block), a power of two of them, at
  // least 64 KiB: erase blocks hold a power-of-two multiple of pages far
  // more often than not, so the chunk divides the block and every block
  // starts on a write (a 24 KiB unit gives 96 KiB writes, not 72 KiB).
  const uint64_t unit = write_unit.value_or(target.device->limits().logical_block);
  stream.chunk_bytes = unit;
  while (stream.chunk_bytes < 64 * 1024) stream.chunk_bytes *= 2;
  stream.seed = options.seed;
  stream.progress = [&progress](int pass, uint64_t done, uint64_t total) {
    progress.message(fmt::format("sequential stream: pass {} of 2 ({}), {}/{} writes", pass,
                                 pass == 1 ? "preconditioning" : "timed", done, total));
  };
  return run_erase_stream(*target.device, stream);
}

// The write grid's and the stream's counter deltas, from the counters read
// before, between and after them.
WriteAmplification write_amplification(const SmartWriteCounters& start, const SmartWriteCounters& middle,
                                       const SmartWriteCounters& end, const WriteRunResult& r) {
  auto grid = write_phase_counts(start, middle, r.grid.bytes_issued, "sub-unit and misaligned random writes");
  auto stream = write_phase_counts(middle, end, r.stream.bytes_written, "aligned whole-unit sequential writes");
  return combine_write_phases(end, std::move(grid), std::move(stream));
}

}  // namespace

WriteRunResult run_write_probes(Target& target, const Region& window, WriteSession* session, const Options& options,
                                double budget_s, ProgressLine& progress, std::optional<uint64_t> read_page) {
  WriteRunResult result;
  result.summary.offset = window.offset;
  result.summary.length = window.length;
  result.summary.preserved = session != nullptr && options.preserve;
  const InterruptGuard signals;  // from here on a signal unwinds through the restore below
  const SigpipeIgnored no_sigpipe;  // and output to a closed pipe is just a failed (ignored) write
  if (session) {
    progress.message(fmt::format("saving {} of original content to {}", format_size(window.length),
                                 options.journal_dir));
    session->save();
    result.summary.journal = session->journal_path().string();
  }
  const bool real_drive = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  try {
    const SmartWriteCounters start = real_drive ? read_write_counters(target.path) : SmartWriteCounters{};
    result.grid = write_grid(target, window, options, budget_s / 2.0, progress);
    const SmartWriteCounters middle = real_drive ? read_write_counters(target.path) : SmartWriteCounters{};
    // The stream gets what the grid left, but never less than a quarter of
    // the budget: it needs two passes, and the grid may have run long.
    result.stream = erase_stream(target, window, result.grid.verdict.bytes, options,
                                 std::max(budget_s - result.grid.elapsed_s, budget_s / 4.0), progress);
    if (real_drive) {
      result.summary.write_amplification = write_amplification(start, middle, read_write_counters(target.path), result);
    }
    // After the counters were read (its writes belong to neither phase's
    // amplification) and before the restore: random writes and write pairs
    // inside the window only, the bytes the session saved.
    progress.message("parallelism probe: queue-depth sweep and stride pairs of random writes in the window");
    const double left_s = budget_s - result.grid.elapsed_s - result.stream.elapsed_s;
    result.parallelism = run_write_parallelism(target, options, window, read_page,
                                               std::max(left_s, options.budget_s * kWriteParallelismBudgetShare));
  } catch (...) {
    // Writes the engine could not reap (it gave up after 30 s) may still
    // land: restoring now could be overwritten by one. The journal stays;
    // the kernel finishes or cancels them when this process exits.
    const unsigned outstanding = target.device ? target.device->abandoned_requests() : 0;
    if (session && session->saved() && outstanding > 0) {
      progress.finish();
      print_quietly(stderr, fmt::format("ssdprobe: write probes stopped with {} request(s) still in flight that "
                                        "could not be reaped; the original content was NOT written back yet: once "
                                        "this process has exited, run: ssdprobe restore {}\n",
                                        outstanding, printable(session->journal_path().string())));
      throw;
    }
    // Restore first, print after: nothing, not even a progress line to a
    // terminal that hung up, may come between a failure and the restore.
    if (session && session->saved()) {
      const auto restored = session->restore();
      progress.finish();
      print_quietly(stderr, fmt::format("ssdprobe: write probes stopped; {}\n",
                                        restored ? restored->message : "nothing to restore"));
    }
    throw;
  }
  if (session && session->saved()) {
    progress.message("restoring the original content");
    const auto restored = session->restore();
    result.summary.restored = restored.has_value();
    result.summary.restore_message = restored ? restored->message : "";
  }
  progress.finish();
  result.summary.bytes_written = result.stream.bytes_written + result.grid.bytes_issued + result.parallelism.bytes_issued;
  result.summary.stream_chunk_bytes = result.stream.stream.chunk_bytes;
  result.summary.streamed_bytes = result.stream.streamed_bytes;
  result.summary.stream_cut_to_budget = result.stream.cut_to_budget;
  result.summary.grid_stop_reason = result.grid.stop_reason;
  result.summary.grid_rounds = result.grid.rounds;
  result.summary.stream_latency_us = result.stream.stream.latency_us;
  return result;
}

}  // namespace ssdprobe
