// Block sizes above 4 KiB: which kernel can mount what, which block a unit
// gets (a power of two that divides it), and how recommend() carries the
// advice (notes, steps in the "filesystem" group).
#include <catch2/catch.hpp>

#include <string>

#include "analysis/block_size_advice.h"
#include "analysis/recommend.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kKiB = 1024;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const BlockSizeAdvice* item_named(const std::vector<BlockSizeAdvice>& advice, const std::string& prefix) {
  for (const auto& item : advice) {
    if (item.what.starts_with(prefix)) return &item;
  }
  return nullptr;
}

// The item whose `what` starts with `prefix`; it must exist and apply or not as said.
const BlockSizeAdvice& required(const std::vector<BlockSizeAdvice>& advice, const std::string& prefix, bool applies) {
  const BlockSizeAdvice* item = item_named(advice, prefix);
  REQUIRE(item);
  CHECK(item->applies == applies);
  return *item;
}

}  // namespace

TEST_CASE("kernel releases parse to major.minor") {
  CHECK(parse_kernel_release("6.18.44-fc-v782") == KernelVersion{6, 18});
  CHECK(parse_kernel_release("6.1.0-18-amd64") == KernelVersion{6, 1});
  CHECK(parse_kernel_release("6.12") == KernelVersion{6, 12});
  CHECK(parse_kernel_release("5.10.0+") == KernelVersion{5, 10});
  CHECK_FALSE(parse_kernel_release(""));
  CHECK_FALSE(parse_kernel_release("6"));
  CHECK_FALSE(parse_kernel_release("6."));
  CHECK_FALSE(parse_kernel_release("linux-6.12"));
  CHECK_FALSE(parse_kernel_release("99999999999.1"));  // overflows unsigned
}

TEST_CASE("XFS blocks above the page size need Linux 6.12") {
  CHECK_FALSE(xfs_large_blocks_supported("6.1.0-18-amd64"));
  CHECK_FALSE(xfs_large_blocks_supported("6.11.9"));
  CHECK(xfs_large_blocks_supported("6.12.0"));
  CHECK(xfs_large_blocks_supported("6.18.44-fc-v782"));
  CHECK(xfs_large_blocks_supported("7.0"));
  CHECK_FALSE(xfs_large_blocks_supported(""));
}

TEST_CASE("a 16 KiB write unit: 16 KiB blocks, XFS only from 6.12") {
  SECTION("Linux 6.18, 4 KiB pages") {
    const auto advice = filesystem_block_advice(16 * kKiB, 16 * kKiB, "6.18.44-fc-v782", 4096, "/dev/sda1");
    REQUIRE(advice.size() == 6);
    CHECK(advice[0].what == "16 KiB blocks");
    CHECK(has(advice[0].why, "is a power of two"));
    const auto& xfs = required(advice, "XFS", true);
    CHECK(xfs.command == "mkfs.xfs -f -b size=16k /dev/sda1");
    CHECK(xfs.step_key == "mkfs_xfs_large_block");
    CHECK(has(xfs.why, "6.18.44-fc-v782"));
    const auto& ext4 = required(advice, "ext4 bigalloc", true);
    CHECK(ext4.command == "mkfs.ext4 -F -b 4096 -O bigalloc -C 16384 /dev/sda1");
    CHECK(has(ext4.why, "a 1 KiB file uses 16 KiB"));
    CHECK(has(required(advice, "F2FS", true).why, "no block size change is needed"));
    const auto& zfs = required(advice, "ZFS", false);
    CHECK(zfs.command == "zpool create -o ashift=14 POOL /dev/sda1");
    CHECK(has(zfs.why, "untested"));
    const auto& db = required(advice, "database", true);
    CHECK(db.command.empty());
    CHECK(has(db.why, "innodb_page_size=16k"));
    CHECK(has(db.why, "--with-blocksize=16"));
  }
  SECTION("Debian 12's Linux 6.1: the XFS command is shown but does not apply") {
    const auto advice = filesystem_block_advice(16 * kKiB, 16 * kKiB, "6.1.0-18-amd64", 4096);
    const auto& xfs = required(advice, "XFS", false);
    CHECK(xfs.step_key.empty());
    CHECK(xfs.command == "mkfs.xfs -f -b size=16k PARTITION");
    CHECK(has(xfs.why, "need Linux 6.12 or newer"));
    required(advice, "ext4 bigalloc", true);
  }
  SECTION("an unknown kernel cannot be assumed to mount it") {
    const auto advice = filesystem_block_advice(std::nullopt, 16 * kKiB, "", 4096);
    CHECK_FALSE(item_named(advice, "XFS")->applies);
  }
  SECTION("64 KiB memory pages: a 16 KiB XFS block mounts on any kernel") {
    const auto advice = filesystem_block_advice(16 * kKiB, 16 * kKiB, "6.1.0", 65536);
    const auto* xfs = item_named(advice, "XFS");
    CHECK(xfs->applies);
    CHECK(has(xfs->why, "mounts on any kernel"));
  }
}

TEST_CASE("a 48 KiB write unit: no block equals it, 16 KiB is the nearest that lines up") {
  const auto advice = filesystem_block_advice(16 * kKiB, 48 * kKiB, "6.18.44-fc-v782", 4096);
  REQUIRE(advice.size() == 6);
  CHECK(advice[0].what == "16 KiB blocks");
  CHECK(has(advice[0].why, "no block size equals the 48 KiB write unit"));
  CHECK(has(advice[0].why, "matches the 16 KiB read page"));
  CHECK(has(advice[0].why, "1/3 of a unit"));
  CHECK(item_named(advice, "XFS")->command == "mkfs.xfs -f -b size=16k PARTITION");
  CHECK(has(item_named(advice, "ext4 bigalloc")->command, "-C 16384 "));
  CHECK(has(item_named(advice, "ZFS")->command, "ashift=14 "));
  for (const auto& item : advice) CHECK_FALSE(has(item.command, "48k"));
}

TEST_CASE("large units are capped where the tools stop") {
  const auto advice = filesystem_block_advice(32 * kKiB, 256 * kKiB, "6.18", 4096);
  CHECK(item_named(advice, "XFS")->command == "mkfs.xfs -f -b size=64k PARTITION");
  CHECK(has(item_named(advice, "XFS")->why, "at most 64 KiB"));
  CHECK(has(item_named(advice, "ZFS")->command, "ashift=16 "));
  CHECK(has(item_named(advice, "ext4 bigalloc")->command, "-C 262144 "));
  CHECK(has(item_named(advice, "database")->why, "--with-blocksize=32"));
}

TEST_CASE("units of 4 KiB or less need no advice beyond one line") {
  const auto advice = filesystem_block_advice(4 * kKiB, 4 * kKiB, "6.18", 4096);
  REQUIRE(advice.size() == 1);
  CHECK(advice[0].what == "4 KiB blocks");
  CHECK(advice[0].command.empty());
  CHECK(has(advice[0].why, "already cover them"));
  CHECK(filesystem_block_advice(std::nullopt, std::nullopt, "6.18", 4096).empty());
  CHECK(filesystem_block_advice(std::nullopt, 2048, "6.18", 4096).size() == 1);
}

TEST_CASE("a unit no power of two above 4 KiB divides gets no larger block") {
  const auto advice = filesystem_block_advice(std::nullopt, 12 * kKiB, "6.18", 4096);
  REQUIRE(advice.size() == 1);
  CHECK(advice[0].what == "no block size above 4 KiB");
  CHECK(has(advice[0].why, "keep 4 KiB blocks"));
}

TEST_CASE("recommend() carries the advice as notes and filesystem steps") {
  GeometryForRecommendation g;
  g.read_page = 16 * kKiB;
  g.write_unit = 48 * kKiB;
  g.kernel_release = "6.18.44-fc-v782";
  SECTION("on 6.18 both mkfs commands become alternatives to the other mkfs steps") {
    const Recommendations r = recommend(g, "/dev/sda", "/dev/sda1", false);
    REQUIRE(r.block_size_advice.size() == 6);
    for (const char* key : {"mkfs_xfs_large_block", "mkfs_ext4_bigalloc"}) {
      INFO(key);
      const RecommendedCommand* step = find_step(r, key);
      REQUIRE(step);
      CHECK(step->alternative_group == "filesystem");
      CHECK(step->destroys_data);
      CHECK(has(step->command, "/dev/sda1"));
    }
    CHECK(r.steps.back().alternative_group == "filesystem");
    CHECK(item_named(r.block_size_advice, "F2FS")->command == find_step(r, "mkfs_f2fs")->command);
    bool zfs_note = false;
    for (const auto& note : r.notes) zfs_note |= has(note, "(not usable here)") && has(note, "zpool create");
    CHECK(zfs_note);
  }
  SECTION("on 6.1 XFS is no step, only a note") {
    g.kernel_release = "6.1.0-18-amd64";
    const Recommendations r = recommend(g, "/dev/sda", "/dev/sda1", false);
    CHECK(find_step(r, "mkfs_xfs_large_block") == nullptr);
    CHECK(find_step(r, "mkfs_ext4_bigalloc") != nullptr);
  }
}
