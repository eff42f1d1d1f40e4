#include "cli/write_run.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "probe/grid_plan.h"
#include "safety/interrupt.h"

namespace ssdprobe {
namespace {

// At most this much is written by the write grid (the stream adds two passes
// over the window): enough for a verdict, little wear.
constexpr uint64_t kWriteGridByteCap = 1ull << 30;

GridProbeResult write_grid(Target& target, const Region& window, const Options& options, ProgressLine& progress) {
  GridPlanInput input;
  input.target_size = target.device->limits().size_bytes;
  input.disk_start = target.topology.partition_start_bytes;
  input.logical_block = target.device->limits().logical_block;
  input.max_transfer = target.device->limits().max_transfer;
  input.region = window;
  const GridPlan plan = plan_write_grid(input);
  GridProbeOptions probe;
  probe.op = IoOp::write;
  probe.name = "write";
  probe.analysis = write_unit_options(plan.candidates, options.seed);
  probe.budget_s = options.budget_s;
  probe.queue_depth = 1;  // a write unit shows in one write's latency, not in overlap
  probe.max_bytes = kWriteGridByteCap;
  probe.seed = options.seed;
  probe.progress = [&progress](const GridProbeProgress& p) { progress.update(p); };
  return run_grid_probe(*target.device, plan, probe);
}

EraseStreamResult erase_stream(Target& target, const Region& window, const std::optional<uint64_t>& write_unit,
                               const Options& options, ProgressLine& progress) {
  EraseStreamOptions stream;
  stream.window = window;
  // Whole write units per write, at least 64 KiB: a stream of partial units
  // would measure read-modify-write, not the erase block.
  const uint64_t unit = write_unit.value_or(target.device->limits().logical_block);
  stream.chunk_bytes = unit * ((64 * 1024 + unit - 1) / unit);
  stream.seed = options.seed;
  stream.progress = [&progress](int pass, uint64_t done, uint64_t total) {
    progress.message(fmt::format("sequential stream: pass {} of 2 ({}), {}/{} writes", pass,
                                 pass == 1 ? "preconditioning" : "timed", done, total));
  };
  return run_erase_stream(*target.device, stream);
}

}  // namespace

WriteRunResult run_write_probes(Target& target, const Region& window, WriteSession* session, const Options& options,
                                ProgressLine& progress) {
  WriteRunResult result;
  result.summary.offset = window.offset;
  result.summary.length = window.length;
  result.summary.preserved = session != nullptr && options.preserve;
  const InterruptGuard signals;  // from here on a signal unwinds through the restore below
  if (session) {
    progress.message(fmt::format("saving {} of original content to {}", format_size(window.length),
                                 options.journal_dir));
    session->save();
    result.summary.journal = session->journal_path().string();
  }
  try {
    result.grid = write_grid(target, window, options, progress);
    result.stream = erase_stream(target, window, result.grid.verdict.bytes, options, progress);
  } catch (...) {
    progress.finish();
    if (session && session->saved()) {
      const auto restored = session->restore();
      fmt::print(stderr, "ssdprobe: write probes stopped; {}\n", restored ? restored->message : "nothing to restore");
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
  result.summary.bytes_written = result.stream.bytes_written + result.grid.bytes_issued;
  result.summary.stream_chunk_bytes = result.stream.stream.chunk_bytes;
  result.summary.stream_latency_us = result.stream.stream.latency_us;
  return result;
}

}  // namespace ssdprobe
