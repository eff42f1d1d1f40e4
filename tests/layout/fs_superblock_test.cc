// Filesystem superblocks: decode_filesystem on bytes laid out by each
// format's definition (including the fields a crafted disk gets wrong), and
// on images the real mkfs tools make in temporary files, identified through
// probe_content (libblkid) exactly as the audit does it.
#include "layout/fs_superblock.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>

#include "shell_command.h"
#include <cstdio>
#include <string>
#include <vector>

#include "core/unique_fd.h"
#include "layout/blkid_probe.h"
#include "temp_tree.h"

using namespace ssdprobe;

namespace {

// --- hand-made superblocks ---------------------------------------------------

struct Bytes {
  std::vector<uint8_t> data = std::vector<uint8_t>(kFilesystemHeadBytes, 0);
  void be(size_t offset, uint64_t value, size_t length) {
    for (size_t i = 0; i < length; ++i) data[offset + i] = static_cast<uint8_t>(value >> (8 * (length - 1 - i)));
  }
  void le(size_t offset, uint64_t value, size_t length) {
    for (size_t i = 0; i < length; ++i) data[offset + i] = static_cast<uint8_t>(value >> (8 * i));
  }
  void text(size_t offset, const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) data[offset + i] = static_cast<uint8_t>(s[i]);
  }
};

// xfs_format.h struct xfs_dsb: magic 0, blocksize 4, versionnum 100,
// sectsize 102, fname 108, unit 184, width 188 (big-endian).
Bytes xfs(uint32_t block, uint16_t sector, uint32_t unit, uint32_t width, bool dalign) {
  Bytes b;
  b.text(0, "XFSB");
  b.be(4, block, 4);
  b.be(100, 0xb4a5 | (dalign ? 0x0100 : 0), 2);
  b.be(102, sector, 2);
  b.text(108, "scratch");
  b.be(184, unit, 4);
  b.be(188, width, 4);
  return b;
}

// ext4.h struct ext4_super_block at 1024: s_log_block_size 0x18, s_magic
// 0x38, s_feature_incompat 0x60, s_volume_name 0x78, s_raid_stride 0x164,
// s_raid_stripe_width 0x170, s_log_groups_per_flex 0x174.
Bytes ext4(uint32_t log_block, uint16_t stride, uint32_t stripe_width, bool flex_bg, uint8_t log_flex) {
  Bytes b;
  const size_t sb = 1024;
  b.le(sb + 0x18, log_block, 4);
  b.le(sb + 0x38, 0xEF53, 2);
  b.le(sb + 0x60, flex_bg ? 0x2c2 : 0x0c2, 4);
  b.text(sb + 0x78, "data");
  b.le(sb + 0x164, stride, 2);
  b.le(sb + 0x170, stripe_width, 4);
  b.le(sb + 0x174, log_flex, 1);
  return b;
}

// f2fs_fs.h struct f2fs_super_block at 1024: magic 0, log_sectorsize 8,
// log_sectors_per_block 12, log_blocksize 16, log_blocks_per_seg 20,
// segs_per_sec 24, volume_name (UTF-16LE) 124.
Bytes f2fs(uint32_t log_sector, uint32_t log_sectors_per_block, uint32_t log_blocks_per_seg, uint32_t segs_per_sec) {
  Bytes b;
  const size_t sb = 1024;
  b.le(sb, 0xF2F52010, 4);
  b.le(sb + 8, log_sector, 4);
  b.le(sb + 12, log_sectors_per_block, 4);
  b.le(sb + 16, 12, 4);
  b.le(sb + 20, log_blocks_per_seg, 4);
  b.le(sb + 24, segs_per_sec, 4);
  const std::string name = "fast";
  for (size_t i = 0; i < name.size(); ++i) b.le(sb + 124 + 2 * i, static_cast<uint8_t>(name[i]), 2);
  b.le(sb + 124 + 2 * name.size(), 0x00e9, 2);  // é: not ASCII
  return b;
}

// btrfs_tree.h struct btrfs_super_block at 64 KiB: magic 64, sectorsize 144,
// nodesize 148, label 299.
Bytes btrfs(uint32_t sectorsize, uint32_t nodesize) {
  Bytes b;
  const size_t sb = 65536;
  b.text(sb + 64, "_BHRfS_M");
  b.le(sb + 144, sectorsize, 4);
  b.le(sb + 148, nodesize, 4);
  b.text(sb + 299, "pool");
  return b;
}

}  // namespace

TEST_CASE("xfs: block, sector, and sunit/swidth from blocks to bytes", "[fs]") {
  const Bytes b = xfs(4096, 512, 16, 64, true);
  const FilesystemInfo fs = decode_filesystem("xfs", b.data);
  CHECK(fs.type == "xfs");
  CHECK(fs.block_bytes == 4096);
  CHECK(fs.sector_bytes == 512u);
  CHECK(fs.stripe_unit_bytes == 65536u);
  CHECK(fs.stripe_width_bytes == 262144u);
  CHECK(fs.label == "scratch");
  CHECK_FALSE(fs.segment_bytes);
  CHECK_FALSE(fs.node_bytes);
}

TEST_CASE("xfs: a stripe the kernel would refuse, or no stripe, is left unset", "[fs]") {
  CHECK_FALSE(decode_filesystem("xfs", xfs(4096, 512, 0, 0, false).data).stripe_unit_bytes);
  CHECK_FALSE(decode_filesystem("xfs", xfs(4096, 512, 16, 64, false).data).stripe_unit_bytes);  // no dalign bit
  CHECK_FALSE(decode_filesystem("xfs", xfs(4096, 512, 16, 40, true).data).stripe_width_bytes);  // not a multiple
  CHECK_FALSE(decode_filesystem("xfs", xfs(4096, 512, 16, 8, true).data).stripe_unit_bytes);    // width < unit
  const FilesystemInfo bad_block = decode_filesystem("xfs", xfs(3000, 512, 16, 64, true).data);
  CHECK(bad_block.block_bytes == 0);
  CHECK_FALSE(bad_block.stripe_unit_bytes);
  CHECK(bad_block.sector_bytes == 512u);
  CHECK_FALSE(decode_filesystem("xfs", xfs(4096, 0, 16, 64, true).data).sector_bytes);
  CHECK(decode_filesystem("xfs", xfs(1u << 17, 512, 1, 1, true).data).block_bytes == 0);  // > 64 KiB
}

TEST_CASE("ext4: block from s_log_block_size, stride and stripe width in bytes, flex_bg groups", "[fs]") {
  const FilesystemInfo fs = decode_filesystem("ext4", ext4(2, 4, 16, true, 4).data);
  CHECK(fs.block_bytes == 4096);
  CHECK(fs.stripe_unit_bytes == 16384u);
  CHECK(fs.stripe_width_bytes == 65536u);
  CHECK(fs.flex_bg_groups == 16u);
  CHECK(fs.label == "data");
  for (const char* type : {"ext2", "ext3", "ext4dev"}) {
    CHECK(decode_filesystem(type, ext4(0, 0, 0, false, 0).data).block_bytes == 1024);
  }
}

TEST_CASE("ext4: zero or impossible fields leave their values unset", "[fs]") {
  const FilesystemInfo plain = decode_filesystem("ext4", ext4(2, 0, 0, false, 4).data);
  CHECK(plain.block_bytes == 4096);
  CHECK_FALSE(plain.stripe_unit_bytes);
  CHECK_FALSE(plain.stripe_width_bytes);
  CHECK_FALSE(plain.flex_bg_groups);  // log set, feature not
  CHECK_FALSE(decode_filesystem("ext4", ext4(2, 0, 0, true, 0).data).flex_bg_groups);
  CHECK_FALSE(decode_filesystem("ext4", ext4(2, 0, 0, true, 32).data).flex_bg_groups);
  CHECK(decode_filesystem("ext4", ext4(2, 0, 0, true, 31).data).flex_bg_groups == 1u << 31);
  CHECK(decode_filesystem("ext4", ext4(6, 0, 0, false, 0).data).block_bytes == 65536);
  const FilesystemInfo absurd = decode_filesystem("ext4", ext4(17, 4, 16, false, 0).data);
  CHECK(absurd.block_bytes == 0);
  CHECK_FALSE(absurd.stripe_unit_bytes);
  CHECK(decode_filesystem("ext4", ext4(7, 0, 0, false, 0).data).block_bytes == 0);
  CHECK(decode_filesystem("ext4", ext4(0xffffffff, 0, 0, false, 0).data).block_bytes == 0);
}

TEST_CASE("f2fs: block, segment and section sizes; UTF-16 label", "[fs]") {
  const FilesystemInfo fs = decode_filesystem("f2fs", f2fs(9, 3, 9, 2).data);
  CHECK(fs.block_bytes == 4096);
  CHECK(fs.segment_bytes == 2u << 20);
  CHECK(fs.section_bytes == 4u << 20);
  CHECK(fs.label == "fast?");
  CHECK(decode_filesystem("f2fs", f2fs(12, 0, 9, 1).data).section_bytes == 2u << 20);
}

TEST_CASE("f2fs: impossible logs or counts leave their values unset", "[fs]") {
  CHECK(decode_filesystem("f2fs", f2fs(8, 4, 9, 2).data).block_bytes == 0);           // sector < 512
  CHECK(decode_filesystem("f2fs", f2fs(9, 0xfffffff8, 9, 2).data).block_bytes == 0);  // wraps in 32 bits
  CHECK(decode_filesystem("f2fs", f2fs(9, 8, 9, 2).data).block_bytes == 0);           // 128 KiB blocks
  const FilesystemInfo no_segment = decode_filesystem("f2fs", f2fs(9, 3, 40, 2).data);
  CHECK(no_segment.block_bytes == 4096);
  CHECK_FALSE(no_segment.segment_bytes);
  CHECK_FALSE(no_segment.section_bytes);
  const FilesystemInfo no_section = decode_filesystem("f2fs", f2fs(9, 3, 9, 0).data);
  CHECK(no_section.segment_bytes == 2u << 20);
  CHECK_FALSE(no_section.section_bytes);
}

TEST_CASE("btrfs: sector and node size at 64 KiB", "[fs]") {
  const FilesystemInfo fs = decode_filesystem("btrfs", btrfs(4096, 16384).data);
  CHECK(fs.block_bytes == 4096);
  CHECK(fs.sector_bytes == 4096u);
  CHECK(fs.node_bytes == 16384u);
  CHECK(fs.label == "pool");
  CHECK_FALSE(decode_filesystem("btrfs", btrfs(4096, 2048).data).node_bytes);  // node < sector
  CHECK_FALSE(decode_filesystem("btrfs", btrfs(4096, 20000).data).node_bytes);
  CHECK(decode_filesystem("btrfs", btrfs(0, 16384).data).block_bytes == 0);
  // A head too short to reach the superblock decodes nothing.
  const Bytes b = btrfs(4096, 16384);
  CHECK(decode_filesystem("btrfs", std::span(b.data).first(65536 + 100)).block_bytes == 0);
}

TEST_CASE("swap: the page size is where the magic ends the first page", "[fs]") {
  for (const uint32_t page : {4096u, 16384u, 65536u}) {
    Bytes b;
    b.text(page - 10, "SWAPSPACE2");
    b.text(1052, "swappy");
    const FilesystemInfo fs = decode_filesystem("swap", b.data);
    CHECK(fs.block_bytes == page);
    CHECK(fs.label == "swappy");
  }
  Bytes old;
  old.text(8192 - 10, "SWAP-SPACE");
  CHECK(decode_filesystem("swap", old.data).block_bytes == 8192);
  Bytes misplaced;
  misplaced.text(5000, "SWAPSPACE2");
  CHECK(decode_filesystem("swap", misplaced.data).block_bytes == 0);
}

TEST_CASE("types not decoded, missing magics and short heads give the type alone", "[fs]") {
  const Bytes zeros;
  for (const char* type : {"xfs", "ext4", "f2fs", "btrfs", "swap", "vfat", "LVM2_member", ""}) {
    INFO(type);
    const FilesystemInfo fs = decode_filesystem(type, zeros.data);
    CHECK(fs.type == type);
    CHECK(fs.block_bytes == 0);
    CHECK(fs.label.empty());
    CHECK(decode_filesystem(type, {}).block_bytes == 0);
  }
  // An xfs superblock handed over as ext4 is not read as ext4.
  CHECK(decode_filesystem("ext4", xfs(4096, 512, 16, 64, true).data).block_bytes == 0);
}

// --- images made by the real tools -------------------------------------------

namespace {

using test_support::run_shell;

bool have(const std::string& tool) {
  if (run_shell("command -v " + tool).first == 0) return true;
  WARN(tool << " is not installed (scripts/install-deps --tests installs it): this part is skipped");
  return false;
}

// Makes a sparse file of `bytes` and runs `mkfs` (with {} for the file) on it.
std::string make_image(const test_support::TempTree& dir, const std::string& name, uint64_t bytes,
                       const std::string& mkfs) {
  const std::string file = dir.path(name).string();
  REQUIRE(run_shell("truncate -s " + std::to_string(bytes) + " '" + file + "'").first == 0);
  std::string command = mkfs;
  command.replace(command.find("{}"), 2, "'" + file + "'");
  const auto [status, output] = run_shell(command);
  INFO(command << "\n" << output);
  REQUIRE(status == 0);
  return file;
}

struct Probed {
  ContentProbe content;
  FilesystemInfo fs;
};

// What the audit does with a filesystem: libblkid names it, decode_filesystem
// reads the head.
Probed probe_image(const std::string& file) {
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  Probed p;
  p.content = probe_content(fd.get(), 0, 0, 512);
  std::vector<uint8_t> head(kFilesystemHeadBytes);
  const ssize_t got = ::pread(fd.get(), head.data(), head.size(), 0);
  REQUIRE(got > 0);
  head.resize(static_cast<size_t>(got));
  p.fs = decode_filesystem(p.content.type, head);
  return p;
}

constexpr uint64_t MiB = 1024 * 1024;

}  // namespace

TEST_CASE("mkfs.xfs images: su/sw and sector size as asked", "[fs][tools]") {
  if (!have("mkfs.xfs")) return;
  const test_support::TempTree dir("ssdprobe-fs-xfs");
  SECTION("su=64k,sw=4") {
    const Probed p = probe_image(make_image(dir, "xfs", 1024 * MiB, "mkfs.xfs -q -f -L striped -d su=64k,sw=4 {}"));
    CHECK(p.content.type == "xfs");
    CHECK(p.content.usage == "filesystem");
    CHECK(p.fs.block_bytes == 4096);
    CHECK(p.fs.stripe_unit_bytes == 65536u);
    CHECK(p.fs.stripe_width_bytes == 4u * 65536);
    CHECK(p.fs.sector_bytes == 512u);
    CHECK(p.fs.label == "striped");
  }
  SECTION("su=12k,sw=3 (the seed's misfit on a 16 KiB page)") {
    const Probed p = probe_image(make_image(dir, "xfs", 1024 * MiB, "mkfs.xfs -q -f -d su=12k,sw=3 {}"));
    CHECK(p.fs.stripe_unit_bytes == 12288u);
    CHECK(p.fs.stripe_width_bytes == 36864u);
  }
  SECTION("no stripe, 4 KiB sectors") {
    const Probed p = probe_image(make_image(dir, "xfs", 512 * MiB, "mkfs.xfs -q -f -s size=4096 {}"));
    CHECK(p.content.type == "xfs");
    CHECK(p.fs.block_bytes == 4096);
    CHECK(p.fs.sector_bytes == 4096u);
    CHECK_FALSE(p.fs.stripe_unit_bytes);
    CHECK_FALSE(p.fs.stripe_width_bytes);
  }
}

TEST_CASE("mkfs.ext4 images: stride, stripe width and flex_bg as asked", "[fs][tools]") {
  if (!have("mkfs.ext4")) return;
  const test_support::TempTree dir("ssdprobe-fs-ext4");
  SECTION("stride=4,stripe_width=16 on 4 KiB blocks, flex_bg of 32 groups") {
    const Probed p = probe_image(
        make_image(dir, "ext4", 64 * MiB, "mkfs.ext4 -q -F -b 4096 -G 32 -L home -E stride=4,stripe_width=16 {}"));
    CHECK(p.content.type == "ext4");
    CHECK(p.content.usage == "filesystem");
    CHECK(p.fs.block_bytes == 4096);
    CHECK(p.fs.stripe_unit_bytes == 16384u);
    CHECK(p.fs.stripe_width_bytes == 65536u);
    CHECK(p.fs.flex_bg_groups == 32u);
    CHECK(p.fs.label == "home");
  }
  SECTION("no flex_bg, no stripe, 1 KiB blocks") {
    const Probed p = probe_image(make_image(dir, "ext4", 64 * MiB, "mkfs.ext4 -q -F -b 1024 -O ^flex_bg {}"));
    CHECK(p.content.type == "ext4");
    CHECK(p.fs.block_bytes == 1024);
    CHECK_FALSE(p.fs.flex_bg_groups);
    CHECK_FALSE(p.fs.stripe_unit_bytes);
    CHECK_FALSE(p.fs.stripe_width_bytes);
  }
  SECTION("ext2 is decoded by the same reader") {
    const Probed p = probe_image(make_image(dir, "ext2", 64 * MiB, "mkfs.ext2 -q -F -b 2048 {}"));
    CHECK(p.content.type == "ext2");
    CHECK(p.fs.block_bytes == 2048);
  }
}

TEST_CASE("mkfs.f2fs image: two segments per section", "[fs][tools]") {
  if (!have("mkfs.f2fs")) return;
  const test_support::TempTree dir("ssdprobe-fs-f2fs");
  const Probed p = probe_image(make_image(dir, "f2fs", 128 * MiB, "mkfs.f2fs -q -f -s 2 -l flash {}"));
  CHECK(p.content.type == "f2fs");
  CHECK(p.fs.block_bytes == 4096);
  CHECK(p.fs.segment_bytes == 2 * MiB);
  CHECK(p.fs.section_bytes == 4 * MiB);
  CHECK(p.fs.label == "flash");
}

TEST_CASE("mkfs.btrfs image: sector and node size as asked", "[fs][tools]") {
  if (!have("mkfs.btrfs")) return;
  const test_support::TempTree dir("ssdprobe-fs-btrfs");
  const Probed p = probe_image(make_image(dir, "btrfs", 128 * MiB, "mkfs.btrfs -q -f -L pool -s 4096 -n 16384 {}"));
  CHECK(p.content.type == "btrfs");
  CHECK(p.fs.block_bytes == 4096);
  CHECK(p.fs.sector_bytes == 4096u);
  CHECK(p.fs.node_bytes == 16384u);
  CHECK(p.fs.label == "pool");
}

TEST_CASE("mkswap images: the page size they were made for", "[fs][tools]") {
  if (!have("mkswap")) return;
  const test_support::TempTree dir("ssdprobe-fs-swap");
  SECTION("this machine's page size") {
    const Probed p = probe_image(make_image(dir, "swap", 16 * MiB, "mkswap -L spare {}"));
    CHECK(p.content.type == "swap");
    CHECK(p.fs.block_bytes == static_cast<uint32_t>(::sysconf(_SC_PAGESIZE)));
    CHECK(p.fs.label == "spare");
  }
  SECTION("16 KiB pages") {
    const Probed p = probe_image(make_image(dir, "swap", 16 * MiB, "mkswap -p 16384 {}"));
    CHECK(p.content.type == "swap");
    CHECK(p.fs.block_bytes == 16384);
  }
}

TEST_CASE("mkfs.vfat image: named by libblkid, not decoded", "[fs][tools]") {
  if (!have("mkfs.vfat")) return;
  const test_support::TempTree dir("ssdprobe-fs-vfat");
  const Probed p = probe_image(make_image(dir, "vfat", 64 * MiB, "mkfs.vfat {}"));
  CHECK(p.content.type == "vfat");
  CHECK(p.content.usage == "filesystem");
  CHECK(p.fs.type == "vfat");
  CHECK(p.fs.block_bytes == 0);
  CHECK_FALSE(p.fs.stripe_unit_bytes);
}
