// The parallelism probe inside a run: plan it over --region (or, for
// writes, the write window), run it with the budget its phase was given,
// and hand the report its section.
#pragma once

#include <cstdint>
#include <optional>

#include "device/target.h"
#include "report/result.h"
#include "run/phase.h"
#include "run/run_context.h"
#include "run/run_options.h"

namespace ssdprobe {

// Reads only, over --region. `read_page` is the measured one, if any: the
// smallest stride (two reads inside one page share it whatever the layout).
// A region too small for the probe gives a section whose verdicts are not
// measured and say why; an IO error ends the probe with a section that says
// so (`failure`); other errors (a signal, a bug) propagate.
ParallelismSection run_parallelism(Target& target, const Options& options, std::optional<uint64_t> read_page,
                                   double budget_s);

// With --write, after the write grid and the stream and before the restore
// (run/write_phases.h): the same probe with writes, over the write window
// only (the window the write session saved; nothing outside it is written).
// Replicate rounds of the write sweep: the fewest the knee can be resampled
// from (analysis/parallelism.h, kMinDepthSegments). Every segment writes:
// three rounds of the sweep and its refinement, the stride pairs and their
// multiples come to at most about 330 MiB of 4 KiB writes, and the cap
// below holds whatever the IO size.
constexpr int kWriteParallelismRounds = 3;
constexpr uint64_t kWriteParallelismByteCap = 384ull << 20;
ParallelismSection run_write_parallelism(Target& target, const Options& options, const Region& window,
                                         std::optional<uint64_t> read_page, double budget_s);

// The read probe as a phase: last of the measuring phases, so the grids and
// the stream run on the drive exactly as before it existed; it gets what
// they left of --budget, at least its share (run/run_budget.h).
PhaseOutcome run_read_parallelism(RunContext& run);

// A probe that an IO error stopped is an optional step that failed: a note
// in the document (what stopped it, and that the rest stands), a warning
// now, and a failed phase; the run goes on. Otherwise done.
PhaseOutcome parallelism_outcome(RunContext& run, const ParallelismSection& section, const std::string& probe,
                                 const std::string& rest_stands);

}  // namespace ssdprobe
