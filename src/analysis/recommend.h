// Turns a detected geometry into a partition start and ready-to-run commands.
// Takes units and the target's identity, never a grid or a device.
//
// The partition alignment is the least common multiple of 1 MiB (what every
// current partitioner already uses) and every unit that was determined; when
// that is just 1 MiB the notes say so, because then the defaults are right.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/verdicts.h"
#include "device/topology.h"

namespace ssdprobe {

struct GeometryForRecommendation {
  std::optional<uint64_t> read_page;
  std::optional<uint64_t> write_unit;
  std::optional<uint64_t> erase_block;
  uint64_t logical_block = 512;
};

// `disk_path` is the whole-disk node the partition commands act on (e.g.
// /dev/nvme0n1); `partition_path` the node the filesystem commands act on.
Recommendations recommend(const GeometryForRecommendation& geometry, const std::string& disk_path,
                          const std::string& partition_path, bool target_is_partition);

// "/dev/nvme0n1" -> "/dev/nvme0n1p1", "/dev/sda" -> "/dev/sda1".
std::string first_partition_path(const std::string& disk_path);

}  // namespace ssdprobe
