#include "layout/audit_cost.h"

#include <algorithm>

namespace ssdprobe {
namespace {

constexpr uint64_t kFilesystemBlock = 4096;

bool has_row(const LatencyGrid& grid, uint64_t size) {
  return std::find(grid.sizes.begin(), grid.sizes.end(), size) != grid.sizes.end();
}

void add_cost(AuditLine& line, const CostGrid& grid, uint64_t request, std::optional<uint64_t> unit, uint64_t seed) {
  if (!has_row(*grid.grid, request)) return;
  MisalignmentCostQuery query;
  query.start_bytes = *line.disk_offset;
  query.request_bytes = request;
  query.request_alignment = kFilesystemBlock;
  query.unit = unit;
  query.sparse_offsets = grid.op == "write";
  query.seed = seed;
  line.costs.push_back({grid.op, grid.name, request, misalignment_cost(*grid.grid, query)});
}

}  // namespace

void attach_costs(AuditLine& line, const AuditUnits& units, const std::vector<CostGrid>& grids, uint64_t seed) {
  if (!line.disk_offset) return;
  for (const auto& grid : grids) {
    if (grid.grid == nullptr || grid.grid->cell_count() == 0) continue;
    // A filesystem block, and one whole unit of the kind the grid times (a
    // write grid's sparse offsets rarely hold a 4 KiB write straddling a
    // larger write unit, so only whole-unit writes may be priced).
    const std::optional<uint64_t> unit = grid.op == "write" ? units.write_unit : units.read_page;
    add_cost(line, grid, kFilesystemBlock, unit, seed);
    if (unit && *unit != kFilesystemBlock) add_cost(line, grid, *unit, unit, seed);
  }
}

void attach_costs(LayoutAudit& audit, const std::vector<CostGrid>& grids, uint64_t seed) {
  for (auto& line : audit.lines) attach_costs(line, audit.units, grids, seed);
}

}  // namespace ssdprobe
