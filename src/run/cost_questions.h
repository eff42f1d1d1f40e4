// The audit's question asked of the read grid while it still samples: what
// does each layer found on the target (and each --at start) cost a
// filesystem's requests? The audit states those costs from the finished grid
// (layout/audit_cost.h). A grid that settled the read page after a few
// samples per cell can leave a real cost inside an interval that also holds
// 1 ("no measurable cost"), with most of --budget unspent; the grid then
// samples the rows the cost is read from until the interval answers, or its
// question rounds run out (probes/grid_probe.h open_rows).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/latency_grid.h"
#include "analysis/unit_inference.h"

namespace ssdprobe {

struct RunContext;

struct CostQuestion {
  std::vector<uint64_t> starts;  // absolute disk offsets of the layers, once each
  uint64_t seed = 1;
};

// The starts of the target's layout (none when it cannot be read: the audit
// will say why) and of --at. Asked at set-up, before any timed phase: the
// layout's reads would count as other IO during the grid.
CostQuestion cost_question(const RunContext& run);

// The request sizes (4 KiB, and the leading page) whose cost at some start
// is still open: not significant, yet the interval reaches a cost of 2 % or
// more.
std::vector<uint64_t> open_cost_rows(const LatencyGrid& grid, const UnitVerdict& verdict, const CostQuestion& question);

}  // namespace ssdprobe
