// Puts a measured price on each layer start the audit checked: what reads
// (and, after --write, writes) of a filesystem block cost at that start
// compared with an aligned one, from the grids the run measured anyway.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/latency_grid.h"
#include "layout/audit.h"

namespace ssdprobe {

struct CostGrid {
  std::string name;            // "read", "write", "read-written"
  std::string op;              // "read" | "write"
  const LatencyGrid* grid = nullptr;
};

// Adds costs to every line that checks a start (disk_offset set): IOs of
// 4 KiB and of one unit (the read page for read grids, the write unit for
// a write grid), each where it is a row of the grid. A filesystem block
// smaller than a unit gets, in its message, the aligned latencies of one
// block and one unit, and how much longer a unit's bytes take in blocks.
void attach_costs(LayoutAudit& audit, const std::vector<CostGrid>& grids, uint64_t seed);
void attach_costs(AuditLine& line, const AuditUnits& units, const std::vector<CostGrid>& grids, uint64_t seed);

}  // namespace ssdprobe
