// The parallelism probe inside a characterization: plan it over --region,
// run it with its share of --budget, and hand the report its section.
#pragma once

#include <cstdint>
#include <optional>

#include "cli/options.h"
#include "device/target.h"
#include "report/result.h"

namespace ssdprobe {

// How one --budget is split: the parallelism probe is promised this share;
// the grids (and with --write the stream) divide the rest as before, and the
// probe runs last with whatever they left, but at least this share. It
// stops after 6 rounds whatever its budget, so on a drive where the grids
// settle early it takes well under its budget (about 1 s on a drive with
// 60 us reads).
constexpr double kParallelismBudgetShare = 0.10;

// Reads only, over --region. `read_page` is the measured one, if any: the
// smallest stride (two reads inside one page share it whatever the layout).
// A region too small for the probe gives a section whose verdicts are not
// measured and say why; an IO error ends the probe with a section that says
// so (`failure`); other errors (a signal, a bug) propagate.
ParallelismSection run_parallelism(Target& target, const Options& options, std::optional<uint64_t> read_page,
                                   double budget_s);

// With --write, inside the write probes (cli/write_run.cc), after the write
// grid and the stream and before the restore: the same probe with writes,
// over the write window only (the window the write session saved; nothing
// outside it is written). It gets what the write grid and the stream left
// of their budget, at least this share of --budget (taken beyond the
// grids' share, like the read probe's minimum).
constexpr double kWriteParallelismBudgetShare = 0.05;
// Replicate rounds of the write sweep: the fewest the knee can be resampled
// from (analysis/parallelism.h, kMinDepthSegments). Every segment writes:
// three rounds of the sweep and its refinement, the stride pairs and their
// multiples come to at most about 330 MiB of 4 KiB writes, and the cap
// below holds whatever the IO size.
constexpr int kWriteParallelismRounds = 3;
constexpr uint64_t kWriteParallelismByteCap = 384ull << 20;
ParallelismSection run_write_parallelism(Target& target, const Options& options, const Region& window,
                                         std::optional<uint64_t> read_page, double budget_s);

}  // namespace ssdprobe
