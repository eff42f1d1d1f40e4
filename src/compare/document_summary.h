// What a comparison keeps of one result document: identity, reported
// geometry, detected units, mismatch fields and a few key latency cells. A
// fleet holds thousands of documents of ~200 KB each (mostly grid numbers);
// each is read, reduced to this (well under 1 KB), and its grids dropped, so
// memory does not grow with the grids.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/saved_result.h"

namespace ssdprobe {

struct UnitReading {
  std::string state;              // found, absent, undetermined, not_measured (or a newer writer's value)
  std::optional<uint64_t> bytes;  // set when state is found
  // Ruled out (state absent): the largest unit the probe could have seen
  // ("no read page up to 128 KiB"); unset otherwise, or when the document
  // does not say.
  std::optional<uint64_t> searched_up_to = std::nullopt;
};

// The key cells of docs/compare.md, as far as one document can give them
// before the group's agreed units are known: the read grid's aligned cell and
// the straddling cell for every power-of-two boundary the grid can show; the
// write grid's offset-0 column.
struct DocumentCells {
  // The request size of the read key cells: 4 KiB, or two logical blocks
  // when that is larger (a 4 KiB request cannot straddle anything on a 4Kn
  // drive). 0 when the document has no read grid with that row.
  uint64_t read_size = 0;
  double read_aligned_us = 0.0;  // read_size at offset 0 (NaN: no samples)
  // (boundary P, median of read_size at offset P - read_size/2), for P a
  // power of two from 4 KiB to 128 KiB that the grid's offsets reach.
  std::vector<std::pair<uint64_t, double>> read_straddle_us;
  // (request size, median at offset 0) of the write grid; empty without one.
  std::vector<std::pair<uint64_t, double>> write_aligned_us;
};

struct DocumentSummary {
  std::string file;
  int schema_minor = 0;
  bool timed = false;  // a characterization (`run` present), not an `info` document
  bool write = false;  // run with --write
  // How the run stopped early, in the verdict's words ("run stopped in the
  // read_grid phase (interrupted by signal 2)"); "" when it ran to its end.
  // A stopped run is partial: what did not finish is not_measured.
  std::string stopped;
  std::string model, firmware, serial;
  std::string wwid;      // NVMe nguid/eui64 where the document has one
  std::string path;      // target.path: /dev/vda, /dev/loop3, a file, sim:NAME
  std::string hostname;  // where it ran ("" when the document has none)
  std::string tool_version, started_at;  // the ssdprobe that wrote it, and when it ran (UTC, ISO 8601)
  uint64_t size_bytes = 0;
  std::optional<uint64_t> logical_block, physical_block, minimum_io, optimal_io;
  std::vector<std::pair<std::string, uint64_t>> firmware_geometry;  // "nvme.npwg_bytes" -> bytes
  UnitReading read_page, write_unit, erase_block;
  std::vector<std::string> mismatch_fields;  // each field once, in document order
  std::optional<uint64_t> partition_alignment;
  DocumentCells cells;

  bool partial() const { return !stopped.empty(); }
};

// Reduces a document read with GridDetail::medians (or full).
DocumentSummary summarize_document(const SavedResult& result);

// The grid of that name in the document ("read", "write"...), or null.
const SavedGrid* grid_named(const SavedResult& result, const char* name);

// Where the cell of `size` at `offset` sits in the grid's matrices ([size]
// [offset]), or nullopt when the grid has no such row or column.
std::optional<std::pair<size_t, size_t>> grid_cell_index(const SavedGrid& grid, uint64_t size, uint64_t offset);

// The median of `size` at `offset` in `grid`, NaN when the grid lacks the
// cell or it has no samples (a 0.0 latency: see docs/result-json.md grids).
double grid_cell_us(const SavedGrid& grid, uint64_t size, uint64_t offset);

}  // namespace ssdprobe
