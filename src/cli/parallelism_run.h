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

// Reads only. `read_page` is the measured one, if any: the smallest stride
// (two reads inside one page share it whatever the layout). A region too
// small for the probe gives a section whose verdicts are not measured and
// say why; other errors (an IO error, a signal) propagate.
ParallelismSection run_parallelism(Target& target, const Options& options, std::optional<uint64_t> read_page,
                                   double budget_s);

}  // namespace ssdprobe
