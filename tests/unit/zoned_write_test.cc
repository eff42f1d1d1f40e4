// The pure parts of zone-safe writes on a host-managed zoned device: which
// zones a run may write (never one holding data, never a conventional one;
// none empty is a refusal), the zone journal's round trip (and its
// validation as untrusted bytes), restore's choice of exactly the journaled
// zones, and the section's summary of the per-zone streams.
#include <linux/blkzoned.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "safety/journal.h"
#include "safety/zone_choice.h"
#include "safety/zone_reset.h"
#include "run/zoned_write_phase.h"

#include "zone_fixture.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

namespace {

using zone_fixture::kCap;
using zone_fixture::kMiB;
using zone_fixture::kZone;
using zone_fixture::zone;

// 16 zones: 0 conventional, 1 full, 2 implicitly open with data, 3 closed,
// the rest empty.
std::vector<Zone> device() {
  std::vector<Zone> zones;
  zones.push_back(zone(0, BLK_ZONE_COND_NOT_WP, BLK_ZONE_TYPE_CONVENTIONAL));
  zones.push_back(zone(1, BLK_ZONE_COND_FULL, BLK_ZONE_TYPE_SEQWRITE_REQ, kCap));
  zones.push_back(zone(2, BLK_ZONE_COND_IMP_OPEN, BLK_ZONE_TYPE_SEQWRITE_REQ, 4 * kMiB));
  zones.push_back(zone(3, BLK_ZONE_COND_CLOSED, BLK_ZONE_TYPE_SEQWRITE_REQ, 8 * kMiB));
  for (uint64_t i = 4; i < 16; ++i) zones.push_back(zone(i, BLK_ZONE_COND_EMPTY));
  return zones;
}

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("ssdprobe-zjournal-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
};

JournalIdentity zone_identity(std::vector<ZoneRange> zones) {
  JournalIdentity id;
  id.path = "/dev/nvme0n1";
  id.rdev = 0x10300;
  id.size_bytes = 16 * kZone;
  id.logical_block = 4096;
  id.serial = "ZNS";
  id.reset_zones = std::move(zones);
  id.window_offset = id.reset_zones.front().start;
  id.window_length = id.reset_zones.back().start + id.reset_zones.back().length - id.window_offset;
  return id;
}

}  // namespace

TEST_CASE("zone choice takes only empty sequential-write-required zones, the last ones, within the limits") {
  const auto zones = device();
  const auto chosen = choose_write_zones(zones, {.wanted = 4, .max_open_zones = 6, .max_active_zones = 8, .inside = {}}, "/dev/z");
  REQUIRE(chosen.size() == 4);
  for (size_t i = 0; i < chosen.size(); ++i) {
    CHECK(chosen[i].cond == BLK_ZONE_COND_EMPTY);
    CHECK(chosen[i].type == BLK_ZONE_TYPE_SEQWRITE_REQ);
    CHECK(chosen[i].start_bytes == (12 + i) * kZone);
  }
  // One open and one closed zone: 8 active allowed, 2 in use, so 6 left; 6
  // open allowed, 1 in use, so 5 left.
  CHECK(choose_write_zones(zones, {.wanted = 100, .max_open_zones = 6, .max_active_zones = 8, .inside = {}}, "/dev/z").size() == 5);
  CHECK(choose_write_zones(zones, {.wanted = 100, .max_open_zones = 0, .max_active_zones = 3, .inside = {}}, "/dev/z").size() == 1);
  CHECK(choose_write_zones(zones, {.wanted = 100, .max_open_zones = std::nullopt, .max_active_zones = std::nullopt, .inside = {}},
                           "/dev/z").size() == 12);
}

TEST_CASE("zone choice never takes a zone with data or a conventional zone, whatever is asked") {
  auto zones = device();
  // An "empty" zone whose write pointer is not at its start is not empty.
  zones[15].write_pointer_bytes += 4096;
  const auto chosen = choose_write_zones(zones, {.wanted = 100, .max_open_zones = std::nullopt,
                                                 .max_active_zones = std::nullopt, .inside = {}}, "/dev/z");
  CHECK(chosen.size() == 11);
  for (const Zone& z : chosen) {
    CHECK(z.start_bytes >= 4 * kZone);
    CHECK(z.start_bytes != 15 * kZone);
  }
}

TEST_CASE("with --region, only empty zones wholly inside it; the limits still count every zone") {
  const auto zones = device();
  // Zones 4..7 are inside; 8 only half.
  const Region region{4 * kZone, 4 * kZone + kZone / 2};
  const auto chosen = choose_write_zones(zones, {.wanted = 100, .max_open_zones = std::nullopt,
                                                 .max_active_zones = std::nullopt, .inside = region}, "/dev/z");
  REQUIRE(chosen.size() == 4);
  CHECK(chosen.front().start_bytes == 4 * kZone);
  CHECK(chosen.back().start_bytes == 7 * kZone);
  // The open zone 2 lies outside the region but counts against the limit of 3 open.
  CHECK(choose_write_zones(zones, {.wanted = 100, .max_open_zones = 3, .max_active_zones = std::nullopt,
                                   .inside = region}, "/dev/z").size() == 2);
  // A region holding only zones with data: refused, counting the region's zones.
  try {
    choose_write_zones(zones, {.wanted = 4, .max_open_zones = 6, .max_active_zones = 8, .inside = {kZone, 3 * kZone}},
                       "/dev/z");
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("none of its 3 zones wholly inside --region") != std::string::npos);
  }
}

TEST_CASE("no empty zone, or no room under the open/active limits: refused, naming how many zones there are") {
  auto zones = device();
  for (uint64_t i = 4; i < 16; ++i) zones[i] = zone(i, BLK_ZONE_COND_FULL, BLK_ZONE_TYPE_SEQWRITE_REQ, kCap);
  try {
    choose_write_zones(zones, {.wanted = 4, .max_open_zones = 6, .max_active_zones = 8, .inside = {}}, "/dev/z");
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("none of its 16 zones is an empty") != std::string::npos);
  }
  CHECK_THROWS_AS(choose_write_zones({}, {.wanted = 4, .max_open_zones = 6, .max_active_zones = 8, .inside = {}}, "/dev/z"), Error);
  try {
    choose_write_zones(device(), {.wanted = 4, .max_open_zones = 1, .max_active_zones = 8, .inside = {}}, "/dev/z");
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("leaves no room") != std::string::npos);
  }
}

TEST_CASE("a zone journal round-trips its zones, has no records, and is validated as untrusted bytes") {
  Scratch scratch;
  const auto file = scratch.dir / "z.ssdpj";
  const std::vector<ZoneRange> zones = {{12 * kZone, kZone}, {13 * kZone, kZone}, {15 * kZone, kZone}};
  {
    JournalWriter writer(file, zone_identity(zones));
    writer.commit();
    writer.mark_writes_started();
  }
  const JournalContents contents = read_journal(file);
  CHECK(contents.committed);
  CHECK(contents.writes_may_have_started);
  CHECK(contents.records.empty());
  CHECK(contents.identity.reset_zones == zones);
  CHECK(contents.identity.window_offset == 12 * kZone);
  CHECK(contents.identity.window_length == 4 * kZone);

  // Zone 0 starts at byte 0: allowed for a zone journal (the first MiB rule is the window journal's).
  const auto first = scratch.dir / "first.ssdpj";
  { JournalWriter(first, zone_identity({{0, kZone}})).commit(); }
  CHECK(read_journal(first).identity.reset_zones == std::vector<ZoneRange>{{0, kZone}});

  // Zones out of order, overlapping, unaligned or not spanning the window are corrupt.
  const std::vector<std::vector<ZoneRange>> bad = {
      {{13 * kZone, kZone}, {12 * kZone, kZone}},
      {{12 * kZone, kZone}, {12 * kZone + kMiB, kZone}},
      {{12 * kZone + 512, kZone}},
  };
  int n = 0;
  for (const auto& ranges : bad) {
    const auto path = scratch.dir / ("bad" + std::to_string(n++) + ".ssdpj");
    JournalIdentity id = zone_identity({{12 * kZone, kZone}});
    id.reset_zones = ranges;
    id.window_offset = 12 * kZone;
    id.window_length = 2 * kZone;
    { JournalWriter(path, id).commit(); }
    CHECK_THROWS_AS(read_journal(path), Error);
  }
  // A record in a zone journal is corrupt: it has nothing to write back.
  const auto with_record = scratch.dir / "record.ssdpj";
  {
    JournalWriter writer(with_record, zone_identity({{12 * kZone, kZone}}));
    writer.append(12 * kZone, std::vector<std::byte>(4096));
    writer.commit();
  }
  CHECK_THROWS_AS(read_journal(with_record), Error);
}

TEST_CASE("a window journal without zones still reads as before") {
  Scratch scratch;
  const auto file = scratch.dir / "w.ssdpj";
  JournalIdentity id;
  id.path = "/dev/loop9";
  id.size_bytes = 64 * kMiB;
  id.window_offset = 8 * kMiB;
  id.window_length = 4096;
  {
    JournalWriter writer(file, id);
    writer.append(8 * kMiB, std::vector<std::byte>(4096));
    writer.commit();
  }
  const auto contents = read_journal(file);
  CHECK(contents.committed);
  CHECK(contents.identity.reset_zones.empty());
  CHECK(contents.records.size() == 1);
}

TEST_CASE("restore resets exactly the journaled zones, and refuses when one is no longer such a zone") {
  const auto zones = device();
  const std::vector<ZoneRange> journaled = {{12 * kZone, kZone}, {14 * kZone, kZone}};
  const auto chosen = journaled_zones_in(zones, journaled, "/dev/z");
  REQUIRE(chosen.size() == 2);
  CHECK(chosen[0].start_bytes == 12 * kZone);
  CHECK(chosen[1].start_bytes == 14 * kZone);
  // Not a zone start, another length, a conventional zone: nothing is reset.
  CHECK_THROWS_AS(journaled_zones_in(zones, std::vector<ZoneRange>{{12 * kZone + kMiB, kZone}}, "/dev/z"), Error);
  CHECK_THROWS_AS(journaled_zones_in(zones, std::vector<ZoneRange>{{12 * kZone, 2 * kZone}}, "/dev/z"), Error);
  CHECK_THROWS_AS(journaled_zones_in(zones, std::vector<ZoneRange>{{0, kZone}}, "/dev/z"), Error);
}

TEST_CASE("the zoned write section summarises each zone's stream and compares a stall period with the zone") {
  ZonedWriteSection section;
  section.zone_bytes = kZone;
  section.zone_capacity_bytes = kCap;
  section.chunk_bytes = 128 * 1024;
  section.zones.resize(2);
  section.zones[0].length_bytes = kZone;
  section.zones[1].length_bytes = kZone;
  ZonedWriteResult result;
  for (int z = 0; z < 2; ++z) {
    ZoneWritten w;
    w.start = (12 + z) * kZone;
    w.capacity = kCap;
    w.stream.chunk_bytes = 128 * 1024;
    for (int i = 0; i < 100; ++i) w.stream.latency_us.push_back(i % 50 == 0 ? 1000.0 : 100.0);
    w.bytes_written = 100 * 128 * 1024;
    if (z == 1) w.stalls.bytes = 8 * kMiB;
    result.zones.push_back(w);
    result.bytes_written += w.bytes_written;
  }
  summarize_zoned_writes(section, result);
  CHECK(section.bytes_written == 200 * 128 * 1024);
  CHECK(section.median_us == Approx(100.0));
  CHECK(section.zones[0].ios == 100);
  CHECK(section.zones[0].slow_ios == 2);
  CHECK(section.zones[0].start_bytes == 12 * kZone);
  CHECK_FALSE(section.zones[0].stall_period_bytes);
  CHECK(section.zones[1].stall_period_bytes == 8 * kMiB);
  // A period in one zone and none in the other is no consistent erase unit.
  CHECK(section.comparison.find("different periods (none, 8 MiB)") != std::string::npos);
  section.zones[0].stall_period_bytes = 8 * kMiB;
  const std::string same = compare_with_zone(section);
  CHECK(same.find("stalled every 8 MiB in every zone") != std::string::npos);
  CHECK(same.find("capacity is 6.00 and the size 8.00") != std::string::npos);
  CHECK(same.find("whole number") != std::string::npos);
  section.zones[0].stall_period_bytes.reset();
  section.zones[1].stall_period_bytes.reset();
  CHECK(compare_with_zone(section).find("No periodic stall") != std::string::npos);
  CHECK(compare_with_zone(section).find("not determined") != std::string::npos);
  // A zone the run never reached is not counted as "none".
  section.zones[1].ios = 0;
  section.zones[0].stall_period_bytes = 8 * kMiB;
  CHECK(compare_with_zone(section).find("stalled every 8 MiB") != std::string::npos);
}
