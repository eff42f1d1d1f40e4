// The recommendation for a zoned block device. The usual advice (a
// partition table aligned to the units, then XFS, ext4 or F2FS) does not
// apply: a host-managed device accepts writes only sequentially in each
// zone, so only filesystems that write zones that way can use it (btrfs in
// zoned mode, F2FS in zoned block device mode), on the whole device, where
// the kernel does not read a partition table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/verdicts.h"

namespace ssdprobe {

struct ZonedForRecommendation {
  std::string model;  // "host-managed" or "host-aware" (sysfs queue/zoned)
  std::optional<uint64_t> zone_bytes;
  std::optional<uint64_t> zone_capacity_bytes;
  // Conventional zones' bytes from the zone report; nullopt when no report
  // was read (then F2FS's metadata device is not known to be needed).
  std::optional<uint64_t> conventional_bytes;
};

// `disk_path` is the whole zoned device the filesystem goes on.
Recommendations recommend_zoned(const ZonedForRecommendation& zoned, const std::string& disk_path);

}  // namespace ssdprobe
