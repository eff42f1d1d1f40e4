// A zoned target's reads stay in its written data: the written part of each
// zone by type and condition, the stretches of a disk's zones inside a
// partition, and the region a run reads (or its refusal), on zone lists
// built by hand with the kernel's type and condition codes.
#include <catch2/catch.hpp>

#include <linux/blkzoned.h>

#include "core/error.h"
#include "device/zone_extents.h"
#include "run/zoned_read_region.h"

#include "zone_fixture.h"

using namespace ssdprobe;

namespace {

using zone_fixture::kMiB;
using zone_fixture::kZone;
constexpr uint64_t kCapacity = zone_fixture::kCap;

Zone sequential(uint64_t index, uint8_t cond, uint64_t written) {
  return zone_fixture::zone(index, cond, BLK_ZONE_TYPE_SEQWRITE_REQ, written);
}

Zone conventional(uint64_t index) {
  return zone_fixture::zone(index, BLK_ZONE_COND_NOT_WP, BLK_ZONE_TYPE_CONVENTIONAL);
}

}  // namespace

TEST_CASE("a zone's written part: to its write pointer, its capacity when full, none when offline") {
  CHECK(zone_written_bytes(sequential(3, BLK_ZONE_COND_EMPTY, 0)) == 0);
  CHECK(zone_written_bytes(sequential(3, BLK_ZONE_COND_IMP_OPEN, 5 * kMiB)) == 5 * kMiB);
  CHECK(zone_written_bytes(sequential(3, BLK_ZONE_COND_CLOSED, 7 * kMiB)) == 7 * kMiB);
  // A full zone's write pointer is undefined: its capacity is what was written.
  CHECK(zone_written_bytes(sequential(3, BLK_ZONE_COND_FULL, 0)) == kCapacity);
  CHECK(zone_written_bytes(sequential(3, BLK_ZONE_COND_OFFLINE, kCapacity)) == 0);
  CHECK(zone_written_bytes(sequential(3, BLK_ZONE_COND_READONLY, kCapacity)) == 0);
  CHECK(zone_written_bytes(conventional(0)) == kZone);
}

TEST_CASE("written stretches merge only where a zone's data reaches the next zone's start") {
  // Two conventional zones, then full zones whose capacity (48 of 64 MiB)
  // leaves a gap before the next, a partly written zone, an empty one.
  const std::vector<Zone> zones = {conventional(0), conventional(1), sequential(2, BLK_ZONE_COND_FULL, 0),
                                   sequential(3, BLK_ZONE_COND_CLOSED, 20 * kMiB),
                                   sequential(4, BLK_ZONE_COND_EMPTY, 0)};
  const auto extents = written_extents(zones, 0, 5 * kZone);
  REQUIRE(extents.size() == 2);
  CHECK(extents[0].offset == 0);
  CHECK(extents[0].length == 2 * kZone + kCapacity);  // 176 MiB over three zones
  CHECK(extents[0].zones == 3);
  CHECK(extents[1].offset == 3 * kZone);
  CHECK(extents[1].length == 20 * kMiB);
  CHECK(longest_written_extent(extents)->offset == 0);
  // A partition from 100 MiB to 200 MiB: offsets are the partition's, cut at its ends.
  const auto inside = written_extents(zones, 100 * kMiB, 100 * kMiB);
  REQUIRE(inside.size() == 2);
  CHECK(inside[0].offset == 0);
  CHECK(inside[0].length == 2 * kZone + kCapacity - 100 * kMiB);
  CHECK(inside[1].offset == 3 * kZone - 100 * kMiB);
  CHECK(inside[1].length == 200 * kMiB - 3 * kZone);  // 8 of the zone's 20 written MiB
  CHECK(written_extents(zones, 4 * kZone, kZone).empty());
}

TEST_CASE("a zoned run reads the longest stretch of written data, and says so") {
  const std::vector<Zone> zones = {sequential(0, BLK_ZONE_COND_CLOSED, 8 * kMiB), sequential(1, BLK_ZONE_COND_FULL, 0),
                                   sequential(2, BLK_ZONE_COND_EMPTY, 0)};
  const ZonedReadRegion chosen = zoned_read_region(zones, "/dev/nvme0n1", 0, 3 * kZone, {});
  CHECK(chosen.region.offset == kZone);
  CHECK(chosen.region.length == kCapacity);
  REQUIRE(chosen.notes.size() == 1);
  CHECK(chosen.notes[0] ==
        "zoned device: the reads stay below the write pointers, in the longest stretch of written data (48 MiB at "
        "offset 64 MiB, 1 zone); 56 MiB of written data in all, in 2 stretches");
}

TEST_CASE("a --region above a write pointer, or a zoned device with nothing written, is refused") {
  const std::vector<Zone> zones = {sequential(0, BLK_ZONE_COND_CLOSED, 8 * kMiB), sequential(1, BLK_ZONE_COND_EMPTY, 0)};
  // Inside the written 8 MiB: used as given.
  CHECK(zoned_read_region(zones, "/dev/nvme0n1", 0, 2 * kZone, {kMiB, 4 * kMiB}).region.length == 4 * kMiB);
  try {
    zoned_read_region(zones, "/dev/nvme0n1", 0, 2 * kZone, {kMiB, 16 * kMiB});
    FAIL("a region past the write pointer was accepted");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::usage);
    CHECK_THAT(e.what(), Catch::Contains("runs past the written data at offset 8 MiB"));
    CHECK_THAT(e.what(), Catch::Contains("Written data: 8 MiB at 0"));
  }
  // No --region (offset 0, length 0) is not "the whole device".
  CHECK_THROWS_MATCHES(zoned_read_region(zones, "/dev/nvme0n1", 0, 2 * kZone, {kZone, 0}), Error,
                       Catch::Matchers::Predicate<Error>([](const Error& e) {
                         return std::string(e.what()).find("lies above a write pointer") != std::string::npos;
                       }));
  const std::vector<Zone> empty = {sequential(0, BLK_ZONE_COND_EMPTY, 0), sequential(1, BLK_ZONE_COND_EMPTY, 0)};
  try {
    zoned_read_region(empty, "/dev/nvme0n1", 0, 2 * kZone, {});
    FAIL("a device with nothing written was read");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::target);
    CHECK_THAT(e.what(), Catch::Contains("no written data (2 zones"));
  }
}
