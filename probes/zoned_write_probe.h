// The zone-safe write probe (a --write run on a host-managed zoned device):
// sequential writes from each chosen empty zone's write pointer (its start),
// one at a time and timed, until the zone's capacity (writes past it fail)
// or the zone's share of the budget ends. The per-zone latency stream goes
// through the erase-block analysis (analysis/erase_block.h): a zone is one
// sequential stream, so stalls that recur with a period show there as they
// do in the erase stream. The zones are reset afterwards by the write
// session (safety/zone_reset.h), not here.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/erase_block.h"
#include "device/device.h"

namespace ssdprobe {

struct ZoneToWrite {
  uint64_t start = 0;     // the zone's first byte, its write pointer (the zone is empty)
  uint64_t capacity = 0;  // writable bytes from the start
};

struct ZonedWriteOptions {
  std::vector<ZoneToWrite> zones;
  uint32_t chunk_bytes = 128 * 1024;  // a multiple of the logical block, within max_transfer
  double budget_s = 0.0;              // device time for all zones, shared equally (0 = no limit)
  uint64_t seed = 1;
  std::function<void(size_t zone, uint64_t written, uint64_t capacity)> progress;
};

struct ZoneWritten {
  uint64_t start = 0, capacity = 0;
  uint64_t bytes_written = 0;
  WriteStream stream;          // write k covers [start + k*chunk, ...), the last one possibly shorter
  EraseBlockVerdict stalls;    // the erase-block analysis of this zone's stream
  bool cut_to_budget = false;  // the budget, not the capacity, ended it
};

struct ZonedWriteResult {
  std::vector<ZoneWritten> zones;
  uint64_t bytes_written = 0;
  uint64_t ios = 0;
  double elapsed_s = 0.0;
};

// The largest chunk that fits every limit: at most 128 KiB, the device's
// max transfer and (when known) the zone append limit, rounded down to the
// logical block.
uint32_t zoned_write_chunk(uint32_t logical_block, uint32_t max_transfer, uint64_t zone_append_max_bytes);

// Throws what the runner throws: Error(interrupted) on a signal between IOs
// and IoFailed for a failed write; the session resets the zones either way.
ZonedWriteResult run_zoned_write_probe(Device& device, const ZonedWriteOptions& options);

}  // namespace ssdprobe
