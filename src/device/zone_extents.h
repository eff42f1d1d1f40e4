// Where a zoned device holds written data: the stretches of a zone report
// that lie below the write pointers, as offsets of a target (a whole disk or
// a partition of one). A read there times the medium; a read above a write
// pointer is answered by the controller without touching flash (zeros or an
// error), so a read probe must stay below the pointers. Pure: unit-tested
// on zone lists built by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/units.h"
#include "device/zone_report.h"

namespace ssdprobe {

// One stretch of written data in target offsets, and the zones it spans.
struct WrittenExtent {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t zones = 0;
};

// The written part of one zone, in disk bytes from its start: a
// conventional zone (no write pointer) all of it; a full zone its capacity;
// an open, closed or empty one up to its write pointer; an offline or
// read-only one (write pointer undefined) none.
uint64_t zone_written_bytes(const Zone& zone);

// The written stretches of `zones` inside the target at disk byte
// `target_start` of `target_size` bytes, in target offsets, merged where
// one zone's written part reaches the next zone's start, in disk order.
std::vector<WrittenExtent> written_extents(std::span<const Zone> zones, uint64_t target_start, uint64_t target_size);

// The longest of them (the first of equals); nullopt when none.
std::optional<WrittenExtent> longest_written_extent(std::span<const WrittenExtent> extents);

// Why `region` (target offsets; length 0 = to the end) is not all written
// data, naming the first offset above a write pointer; nullopt when it is.
std::optional<std::string> region_above_write_pointer(std::span<const WrittenExtent> extents, const Region& region,
                                                      uint64_t target_size);

}  // namespace ssdprobe
