#include "safety/zone_choice.h"

#include <linux/blkzoned.h>

#include <algorithm>
#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {
namespace {

bool empty_sequential(const Zone& z) {
  return z.type == BLK_ZONE_TYPE_SEQWRITE_REQ && z.cond == BLK_ZONE_COND_EMPTY &&
         z.write_pointer_bytes == z.start_bytes && z.capacity_bytes > 0 && z.capacity_bytes <= z.length_bytes;
}

// Wholly inside `region` (length 0: the whole device).
bool within(const Zone& z, const Region& region) {
  if (region.length == 0) return true;
  return z.start_bytes >= region.offset && z.length_bytes <= region.length &&
         z.start_bytes - region.offset <= region.length - z.length_bytes;
}

bool open_zone(const Zone& z) { return z.cond == BLK_ZONE_COND_IMP_OPEN || z.cond == BLK_ZONE_COND_EXP_OPEN; }
bool active_zone(const Zone& z) { return open_zone(z) || z.cond == BLK_ZONE_COND_CLOSED; }

// Room left under a limit (0 or absent: none), given how many zones use it now.
uint64_t room(std::optional<uint64_t> limit, uint64_t in_use, uint64_t wanted) {
  if (!limit || *limit == 0) return wanted;
  return *limit > in_use ? std::min(wanted, *limit - in_use) : 0;
}

}  // namespace

bool zone_safe_writes_apply(const Target& target) {
  const auto& zoned = target.topology.zoned;
  return target.kind == TargetKind::block && zoned && zoned->model == "host-managed";
}

std::vector<Zone> choose_write_zones(std::span<const Zone> zones, const ZoneChoiceLimits& limits,
                                     const std::string& path) {
  const auto open = static_cast<uint64_t>(std::count_if(zones.begin(), zones.end(), open_zone));
  const auto active = static_cast<uint64_t>(std::count_if(zones.begin(), zones.end(), active_zone));
  const auto candidate = [&](const Zone& z) { return empty_sequential(z) && within(z, limits.inside); };
  const auto empty = static_cast<uint64_t>(std::count_if(zones.begin(), zones.end(), candidate));
  if (empty == 0) {
    const bool region = limits.inside.length != 0;
    const auto total = static_cast<uint64_t>(std::count_if(zones.begin(), zones.end(),
                                                           [&](const Zone& z) { return within(z, limits.inside); }));
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to write to {}: none of its {} zones{} is an empty sequential-write-required "
                            "zone, and zone-safe write probes write only into empty zones (a zone holding data "
                            "would lose it to the reset that gives the zone back). Reset or free a zone first{}, or "
                            "run without --write", path, total,
                            region ? fmt::format(" wholly inside --region {}+{}", limits.inside.offset,
                                                 limits.inside.length) : "",
                            region ? ", give a --region that holds an empty zone" : ""));
  }
  const uint64_t count = room(limits.max_active_zones, active, room(limits.max_open_zones, open, limits.wanted));
  if (count == 0) {
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to write to {}: {} zones are open and {} active, which leaves no room under its "
                            "limits of {} open and {} active zones; close or finish zones first, or run without --write",
                            path, open, active, limits.max_open_zones.value_or(0), limits.max_active_zones.value_or(0)));
  }
  std::vector<Zone> chosen;
  for (auto it = zones.rbegin(); it != zones.rend() && chosen.size() < count; ++it) {
    if (candidate(*it)) chosen.push_back(*it);
  }
  std::reverse(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace ssdprobe
