#include "safety/zone_reset.h"

#include <linux/blkzoned.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <cerrno>
#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kSectorBytes = 512;  // the zone ioctls count 512 B sectors whatever the LBA size

const Zone* find_zone(std::span<const Zone> report, uint64_t start) {
  const auto it = std::find_if(report.begin(), report.end(), [&](const Zone& z) { return z.start_bytes == start; });
  return it == report.end() ? nullptr : &*it;
}

}  // namespace

std::vector<Zone> journaled_zones_in(std::span<const Zone> report, std::span<const ZoneRange> journaled,
                                     const std::string& path) {
  std::vector<Zone> zones;
  for (const ZoneRange& range : journaled) {
    const Zone* zone = find_zone(report, range.start);
    if (zone == nullptr || zone->length_bytes != range.length || zone->type != BLK_ZONE_TYPE_SEQWRITE_REQ) {
      throw Error(ErrorCategory::refused,
                  fmt::format("refusing to reset zones of {}: the journaled zone {}+{} is not a sequential-write-"
                              "required zone of the device now{}; nothing was reset",
                              path, range.start, range.length, zone ? "" : " (no zone starts there)"));
    }
    zones.push_back(*zone);
  }
  return zones;
}

void reset_zones(int fd, std::span<const ZoneRange> zones, const std::string& path) {
  for (const ZoneRange& z : zones) {
    blk_zone_range range{};
    range.sector = z.start / kSectorBytes;
    range.nr_sectors = z.length / kSectorBytes;
    if (::ioctl(fd, BLKRESETZONE, &range) != 0) {
      throw os_error(fmt::format("resetting the zone at byte {} ({} bytes) of {}", z.start, z.length, path), errno);
    }
  }
}

void verify_zones_empty(int fd, std::span<const ZoneRange> zones, const std::string& path) {
  const std::vector<Zone> report = read_zone_report(fd, path);
  for (const ZoneRange& z : zones) {
    const Zone* now = find_zone(report, z.start);
    if (now == nullptr || now->cond != BLK_ZONE_COND_EMPTY || now->write_pointer_bytes != now->start_bytes) {
      throw Error(ErrorCategory::io,
                  fmt::format("the zone at byte {} of {} is not empty after its reset (condition {}, write pointer "
                              "{} bytes into it)", z.start, path, now ? now->cond : 0,
                              now ? now->write_pointer_bytes - now->start_bytes : 0));
    }
  }
}

void reset_and_verify_zones(int fd, std::span<const ZoneRange> zones, const std::string& path) {
  reset_zones(fd, zones, path);
  verify_zones_empty(fd, zones, path);
}

}  // namespace ssdprobe
