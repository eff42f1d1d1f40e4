// Zones of a zone report built by hand for the zoned tests: 64 MiB zones
// with 48 MiB of capacity (as the QEMU guest's namespace), the kernel's type
// and condition codes (<linux/blkzoned.h>), a write pointer `written` bytes
// into the zone.
#pragma once

#include <linux/blkzoned.h>

#include <cstdint>

#include "device/zone_report.h"

namespace ssdprobe::zone_fixture {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kZone = 64 * kMiB, kCap = 48 * kMiB;

inline Zone zone(uint64_t index, uint8_t cond, uint8_t type = BLK_ZONE_TYPE_SEQWRITE_REQ, uint64_t written = 0) {
  Zone z;
  z.start_bytes = index * kZone;
  z.length_bytes = kZone;
  z.capacity_bytes = type == BLK_ZONE_TYPE_CONVENTIONAL ? kZone : kCap;
  z.write_pointer_bytes = z.start_bytes + written;
  z.type = type;
  z.cond = cond;
  return z;
}

}  // namespace ssdprobe::zone_fixture
