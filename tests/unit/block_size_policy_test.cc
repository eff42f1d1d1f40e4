// The one block-size policy (analysis/block_size_policy.h): what a person
// would check for each kind of drive.
#include <catch2/catch.hpp>

#include "analysis/block_size_policy.h"

using namespace ssdprobe;

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
}

TEST_CASE("a 48 KiB write unit gets 16 KiB blocks and ashift 14, never a 48 KiB physical block") {
  const BlockSizePolicy p = block_size_policy(16 * KiB, 48 * KiB);
  CHECK(*p.unit == 48 * KiB);
  CHECK(std::string(p.unit_name) == "write unit");
  CHECK(*p.physical_block == 16 * KiB);
  CHECK(*p.ashift == 14);
  CHECK_FALSE(p.ashift_clamped);
  CHECK_FALSE(p.optimal_io.has_value());
}

TEST_CASE("a 128 KiB unit is a 128 KiB block, but ZFS gets its largest ashift, 16, and says so") {
  const BlockSizePolicy p = block_size_policy(32 * KiB, 128 * KiB);
  CHECK(*p.physical_block == 128 * KiB);
  CHECK(*p.ashift == 16);
  CHECK(p.ashift_clamped);
}

TEST_CASE("the read page decides when the write unit is 4 KiB or unknown") {
  CHECK(*block_size_policy(16 * KiB, std::nullopt).physical_block == 16 * KiB);
  CHECK(std::string(block_size_policy(16 * KiB, 4 * KiB).unit_name) == "read page");
  CHECK(*block_size_policy(16 * KiB, 4 * KiB).ashift == 14);
}

TEST_CASE("a unit no power of two above 4 KiB divides keeps 4 KiB blocks; small units are 4 KiB") {
  CHECK(*block_size_policy(std::nullopt, 12 * KiB).physical_block == 4 * KiB);
  CHECK(*block_size_policy(2 * KiB, std::nullopt).physical_block == 4 * KiB);
  CHECK(*block_size_policy(2 * KiB, std::nullopt).ashift == 12);
  CHECK_FALSE(block_size_policy(std::nullopt, std::nullopt).unit.has_value());
  CHECK_FALSE(block_size_policy(uint64_t{0}, uint64_t{0}).unit.has_value());
}

TEST_CASE("F2FS sections cover an erase block only when the partition starts on one") {
  const F2fsSections on = f2fs_sections(24 * MiB, 24 * MiB);
  REQUIRE(on.segments.has_value());
  CHECK(*on.segments == 12);
  const F2fsSections off = f2fs_sections(24 * MiB, 3 * MiB);
  CHECK_FALSE(off.segments.has_value());
  CHECK(off.why.find("a start at 3 MiB is not a multiple of the 24 MiB erase block") != std::string::npos);
  CHECK_FALSE(f2fs_sections(2 * MiB, 2 * MiB).segments.has_value());    // one segment already
  CHECK_FALSE(f2fs_sections(3 * MiB, 3 * MiB).segments.has_value());    // not whole segments
  CHECK_FALSE(f2fs_sections(std::nullopt, MiB).segments.has_value());
  CHECK_FALSE(f2fs_sections(24 * MiB, 24 * MiB, "md RAID 0").segments.has_value());
}
