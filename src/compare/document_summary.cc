#include "compare/document_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ssdprobe {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr uint64_t kKeySize = 4096;
constexpr uint64_t kSmallestBoundary = 4096, kLargestBoundary = 128 * 1024;

UnitReading reading(const SavedUnit& unit) {
  UnitReading out{unit.state, std::nullopt, std::nullopt};
  if (unit.state == "found") out.bytes = unit.bytes;
  if (unit.state == "absent") out.searched_up_to = unit.searched_up_to_bytes;
  return out;
}

}  // namespace

const SavedGrid* grid_named(const SavedResult& result, const char* name) {
  for (const SavedGrid& grid : result.grids) {
    if (grid.name == name) return &grid;
  }
  return nullptr;
}

std::optional<std::pair<size_t, size_t>> grid_cell_index(const SavedGrid& grid, uint64_t size, uint64_t offset) {
  const auto row = std::find(grid.sizes.begin(), grid.sizes.end(), size);
  const auto column = std::find(grid.offsets.begin(), grid.offsets.end(), offset);
  if (row == grid.sizes.end() || column == grid.offsets.end()) return std::nullopt;
  return std::pair{static_cast<size_t>(row - grid.sizes.begin()), static_cast<size_t>(column - grid.offsets.begin())};
}

double grid_cell_us(const SavedGrid& grid, uint64_t size, uint64_t offset) {
  const auto cell = grid_cell_index(grid, size, offset);
  if (!cell) return kNaN;
  const auto [i, j] = *cell;
  if (i >= grid.median_us.size() || j >= grid.median_us[i].size()) return kNaN;
  const double value = grid.median_us[i][j];
  // A cell without samples is written as 0.0 (or null, read as NaN).
  return std::isfinite(value) && value > 0.0 ? value : kNaN;
}

DocumentSummary summarize_document(const SavedResult& result) {
  DocumentSummary out;
  out.file = result.file;
  out.schema_minor = result.schema_minor;
  out.timed = result.measured;
  out.write = result.write;
  out.stopped = result.stopped;
  out.model = result.model;
  out.firmware = result.firmware;
  out.serial = result.serial;
  out.wwid = result.wwid;
  out.path = result.path;
  out.hostname = result.hostname;
  out.tool_version = result.tool_version;
  out.started_at = result.started_at;
  out.size_bytes = result.size_bytes;
  out.logical_block = result.logical_block;
  out.physical_block = result.physical_block;
  out.minimum_io = result.minimum_io;
  out.optimal_io = result.optimal_io;
  out.firmware_geometry = result.firmware_geometry;
  out.read_page = reading(result.read_page);
  out.write_unit = reading(result.write_unit);
  out.erase_block = reading(result.erase_block);
  for (const SavedMismatch& m : result.mismatches) {
    if (std::find(out.mismatch_fields.begin(), out.mismatch_fields.end(), m.field) == out.mismatch_fields.end()) {
      out.mismatch_fields.push_back(m.field);
    }
  }
  out.partition_alignment = result.partition_alignment;

  if (const SavedGrid* read = grid_named(result, "read")) {
    const uint64_t size = std::max(kKeySize, 2 * result.logical_block.value_or(512));
    if (std::find(read->sizes.begin(), read->sizes.end(), size) != read->sizes.end()) {
      out.cells.read_size = size;
      out.cells.read_aligned_us = grid_cell_us(*read, size, 0);
      for (uint64_t boundary = kSmallestBoundary; boundary <= kLargestBoundary; boundary *= 2) {
        if (boundary <= size / 2) continue;  // the cell would start at 0: not a straddle
        out.cells.read_straddle_us.emplace_back(boundary, grid_cell_us(*read, size, boundary - size / 2));
      }
    }
  }
  if (const SavedGrid* write = grid_named(result, "write")) {
    for (uint64_t size : write->sizes) out.cells.write_aligned_us.emplace_back(size, grid_cell_us(*write, size, 0));
  }
  return out;
}

}  // namespace ssdprobe
