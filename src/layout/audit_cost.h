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

// Adds costs to every line that checks a start (disk_offset set): reads of
// 4 KiB and of one read page (when the page is known and a grid row), and
// 4 KiB writes when a write grid is given.
void attach_costs(LayoutAudit& audit, const std::vector<CostGrid>& grids, uint64_t seed);
void attach_costs(AuditLine& line, const AuditUnits& units, const std::vector<CostGrid>& grids, uint64_t seed);

}  // namespace ssdprobe
