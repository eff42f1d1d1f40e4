// Where what the kernel reports disagrees with what was measured. Takes the
// reported topology and the detected units, never a grid or a device.
#pragma once

#include <vector>

#include "analysis/verdicts.h"
#include "device/topology.h"

namespace ssdprobe {

struct DetectedGeometry {
  const DetectedUnit* read_page = nullptr;
  const DetectedUnit* write_unit = nullptr;
  const DetectedUnit* erase_block = nullptr;
};

// minimum_io_size and physical_block_size against the larger of read page and
// write unit; optimal_io_size against the write unit and erase block;
// discard_granularity against the write unit; a partition's start against
// every unit. Each entry names the reported field.
std::vector<Mismatch> find_mismatches(const Topology& reported, const DetectedGeometry& detected);

}  // namespace ssdprobe
