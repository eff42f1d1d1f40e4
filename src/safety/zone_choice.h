// Which zones a --write run on a host-managed zoned device may write: only
// EMPTY sequential-write-required zones, so that a zone reset afterwards
// gives each back exactly as it was (empty), and never a zone holding data
// or a conventional zone (those keep their bytes through a reset or take
// random writes, and the run has no copy of them).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/units.h"
#include "device/target.h"
#include "device/zone_report.h"

namespace ssdprobe {

// Zone-safe writes apply to a whole host-managed zoned disk. A partition of
// one, and host-aware devices, stay refused (safety/zoned_refusal.h).
bool zone_safe_writes_apply(const Target& target);

struct ZoneChoiceLimits {
  uint64_t wanted = 4;                      // at most this many zones
  std::optional<uint64_t> max_open_zones;   // queue/max_open_zones (0 or absent: no limit)
  std::optional<uint64_t> max_active_zones; // queue/max_active_zones (0 or absent: no limit)
  Region inside;                            // --region: only zones wholly inside it (length 0: anywhere)
};

// The zones to write, in ascending order: the last `wanted` EMPTY
// sequential-write-required zones (file systems grow from the start of a
// zoned device), fewer when the open and active zone limits, less the zones
// already open or active, leave less room (each zone written stays open
// until it is reset; zones outside `inside` count there too). Throws
// Error(refused) naming how many zones there are (inside the region, when
// one is given) when none is empty, or when the limits leave no room.
std::vector<Zone> choose_write_zones(std::span<const Zone> zones, const ZoneChoiceLimits& limits,
                                     const std::string& path);

}  // namespace ssdprobe
