#include "device/zone_extents.h"

#include <linux/blkzoned.h>

#include <algorithm>
#include <fmt/format.h>

namespace ssdprobe {

uint64_t zone_written_bytes(const Zone& zone) {
  if (zone.type == BLK_ZONE_TYPE_CONVENTIONAL || zone.cond == BLK_ZONE_COND_NOT_WP) return zone.length_bytes;
  switch (zone.cond) {
    case BLK_ZONE_COND_FULL:
      return std::min(zone.capacity_bytes, zone.length_bytes);
    case BLK_ZONE_COND_OFFLINE:
    case BLK_ZONE_COND_READONLY:
      return 0;
    default:
      if (zone.write_pointer_bytes <= zone.start_bytes) return 0;
      return std::min(zone.write_pointer_bytes - zone.start_bytes, zone.length_bytes);
  }
}

std::vector<WrittenExtent> written_extents(std::span<const Zone> zones, uint64_t target_start, uint64_t target_size) {
  const uint64_t target_end = target_start + target_size;
  std::vector<WrittenExtent> extents;
  uint64_t open_end = 0;  // disk byte where the last extent ends, if the next zone may continue it
  for (const Zone& zone : zones) {
    const uint64_t begin = std::max(zone.start_bytes, target_start);
    const uint64_t end = std::min(zone.start_bytes + zone_written_bytes(zone), target_end);
    if (end <= begin) continue;
    if (!extents.empty() && open_end == begin) {
      extents.back().length += end - begin;
      extents.back().zones += 1;
    } else {
      extents.push_back({begin - target_start, end - begin, 1});
    }
    open_end = end;
  }
  return extents;
}

std::optional<WrittenExtent> longest_written_extent(std::span<const WrittenExtent> extents) {
  const auto longest = std::max_element(extents.begin(), extents.end(),
                                        [](const auto& a, const auto& b) { return a.length < b.length; });
  if (longest == extents.end()) return std::nullopt;
  return *longest;
}

std::optional<std::string> region_above_write_pointer(std::span<const WrittenExtent> extents, const Region& region,
                                                      uint64_t target_size) {
  const uint64_t end = region.length == 0 ? target_size : region.offset + region.length;
  for (const WrittenExtent& e : extents) {
    if (region.offset >= e.offset && region.offset < e.offset + e.length) {
      if (end <= e.offset + e.length) return std::nullopt;
      return fmt::format("it runs past the written data at offset {} (a write pointer or the end of a zone's "
                         "capacity)", format_exact_size(e.offset + e.length));
    }
  }
  return fmt::format("its start, offset {}, lies above a write pointer (in a zone's unwritten part)",
                     format_exact_size(region.offset));
}

}  // namespace ssdprobe
