#include "layout/audit_cost.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.h"

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

// The median latency of aligned IOs of `size` (the column at offset 0).
std::optional<double> aligned_median(const LatencyGrid& grid, uint64_t size) {
  const auto row = std::find(grid.sizes.begin(), grid.sizes.end(), size);
  const auto column = std::find(grid.offsets.begin(), grid.offsets.end(), 0);
  if (row == grid.sizes.end() || column == grid.offsets.end()) return std::nullopt;
  const auto& cell = grid.cell(static_cast<size_t>(row - grid.sizes.begin()),
                               static_cast<size_t>(column - grid.offsets.begin()));
  if (cell.empty()) return std::nullopt;
  return summarize_cell(cell).median_us;
}

// A filesystem block smaller than the read page or write unit (audit.h):
// what the grid of that kind measured for one block and for one whole unit,
// and how much longer the unit's bytes take in lone blocks.
void add_block_cost(AuditLine& line, const std::vector<CostGrid>& grids) {
  for (const UnitMiss& miss : line.misses) {
    const std::string op = miss.unit == "read page" ? "read" : miss.unit == "write unit" ? "write" : "";
    for (const auto& grid : grids) {
      if (op.empty() || grid.op != op || grid.grid == nullptr) continue;
      const auto block_us = aligned_median(*grid.grid, line.value_bytes);
      const auto unit_us = aligned_median(*grid.grid, miss.unit_bytes);
      if (!block_us || !unit_us || *unit_us <= 0) continue;
      const uint64_t count = miss.unit_bytes / line.value_bytes;
      line.message += fmt::format(
          "; measured (the {} grid, aligned, one at a time): a {} {} takes {:.0f} us, a {} {} {:.0f} us, so {} {} "
          "in {} lone blocks takes {:.1f}x as long as in one", grid.name, format_size(line.value_bytes), op,
          *block_us, format_size(miss.unit_bytes), op, *unit_us, op == "read" ? "reading" : "writing",
          format_size(miss.unit_bytes), count, static_cast<double>(count) * *block_us / *unit_us);
      break;
    }
  }
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
  for (auto& line : audit.lines) {
    attach_costs(line, audit.units, grids, seed);
    if (!line.ok && line.field.ends_with(".block_size")) add_block_cost(line, grids);
  }
}

}  // namespace ssdprobe
