// What the kernel says about a zoned block device, from sysfs queue/ (no IO):
// the zone model and the zone limits. Host-managed devices (NVMe ZNS, SMR
// disks) accept writes only sequentially at each zone's write pointer;
// host-aware ones accept random writes but handle them badly. Both make
// ssdprobe's random-offset write probes wrong (safety/zoned_refusal.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace ssdprobe {

struct ZonedLimits {
  // queue/zoned as the kernel prints it: "none", "host-aware" or "host-managed".
  std::string model;
  // queue/chunk_sectors in bytes: the zone size on a zoned device (also set
  // by RAID and some drives on non-zoned devices, so kept apart).
  std::optional<uint64_t> chunk_bytes;
  std::optional<uint64_t> nr_zones;           // queue/nr_zones
  std::optional<uint64_t> max_open_zones;     // queue/max_open_zones (0: no limit)
  std::optional<uint64_t> max_active_zones;   // queue/max_active_zones (0: no limit)
  std::optional<uint64_t> zone_append_max_bytes;  // queue/zone_append_max_bytes

  bool zoned() const { return model == "host-managed" || model == "host-aware"; }
  // The zone size, when zoned and chunk_sectors says it.
  std::optional<uint64_t> zone_bytes() const { return zoned() ? chunk_bytes : std::nullopt; }
};

// Reads the limits from a disk's queue directory; nullopt when queue/zoned
// does not exist (kernels before 4.10, or not a block queue).
std::optional<ZonedLimits> read_zoned_limits(const std::filesystem::path& queue);

}  // namespace ssdprobe
