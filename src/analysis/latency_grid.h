// The narrow input of the read analysis: latency samples per (size, offset)
// cell, in microseconds. Offsets are positions inside a slot whose start is
// aligned to every candidate unit on the *disk* (not just the target), so a
// unit boundary sits at offset 0, L, 2L... of every slot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdprobe {

struct CellSummary {
  double median_us = 0, p10_us = 0, p90_us = 0, p99_us = 0;
  uint64_t count = 0;
};

struct LatencyGrid {
  std::vector<uint64_t> sizes;    // rows
  std::vector<uint64_t> offsets;  // columns
  std::vector<std::vector<double>> samples;  // [row * offsets.size() + column]

  LatencyGrid() = default;
  LatencyGrid(std::vector<uint64_t> sizes_in, std::vector<uint64_t> offsets_in)
      : sizes(std::move(sizes_in)), offsets(std::move(offsets_in)), samples(sizes.size() * offsets.size()) {}

  size_t cell_count() const { return samples.size(); }
  size_t cell_index(size_t row, size_t column) const { return row * offsets.size() + column; }
  std::vector<double>& cell(size_t row, size_t column) { return samples[cell_index(row, column)]; }
  const std::vector<double>& cell(size_t row, size_t column) const { return samples[cell_index(row, column)]; }
  uint64_t total_samples() const;
};

CellSummary summarize_cell(const std::vector<double>& samples);

}  // namespace ssdprobe
