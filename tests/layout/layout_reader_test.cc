// The stack reader on disk images made by the real tools in files the test
// creates (no root, no loop device): the table's partitions, the filesystem
// inside one at its absolute offset, and a table that claims more than the
// image holds.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "layout/layout_reader.h"
#include "layout/md_superblock.h"
#include "shell_command.h"
#include "temp_tree.h"

using namespace ssdprobe;
using test_support::run_shell;

namespace {

constexpr uint64_t MiB = 1024 * 1024;

DiskLayout read_image(const std::filesystem::path& image) {
  const int fd = ::open(image.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  LayoutSource source;
  source.fd = fd;
  source.path = image.string();
  source.size_bytes = std::filesystem::file_size(image);
  DiskLayout layout = read_disk_layout(source);
  ::close(fd);
  return layout;
}

void must_run(const std::string& command) {
  const auto [status, output] = run_shell(command);
  INFO(command << "\n" << output);
  REQUIRE(status == 0);
}

}  // namespace

TEST_CASE("a DOS table at sector 63 with an ext4 at 1 MiB in its second partition") {
  test_support::TempTree tree;
  const auto image = tree.root() / "disk.img";
  must_run("truncate -s 64M '" + image.string() + "'");
  must_run("printf 'label: dos\\nstart=63, size=1985, type=83\\nstart=2048, size=65536, type=83\\n' | sfdisk -q '" +
           image.string() + "'");
  must_run("mkfs.ext4 -q -F -b 4096 -E offset=1048576,stride=4,stripe_width=4 '" + image.string() + "' 8192");
  const DiskLayout layout = read_image(image);
  REQUIRE(layout.table);
  CHECK(layout.table->scheme == "dos");
  REQUIRE(layout.stacks.size() == 2);
  CHECK(layout.stacks[0].start_disk_offset == 63 * 512);
  CHECK_FALSE(layout.stacks[0].filesystem);
  const LayoutStack& second = layout.stacks[1];
  CHECK(second.partition->number == 2);
  CHECK(second.start_disk_offset == 1 * MiB);
  REQUIRE(second.filesystem);
  CHECK(second.filesystem->type == "ext4");
  CHECK(second.filesystem_disk_offset == 1 * MiB);
  CHECK(second.filesystem->stripe_unit_bytes == 16384u);
}

TEST_CASE("a table that claims more than the image holds is read as far as it goes") {
  test_support::TempTree tree;
  const auto image = tree.root() / "cut.img";
  must_run("truncate -s 64M '" + image.string() + "'");
  must_run("printf 'label: dos\\nstart=2048, size=129024, type=83\\n' | sfdisk -q '" + image.string() + "'");
  must_run("truncate -s 32M '" + image.string() + "'");
  const DiskLayout layout = read_image(image);
  REQUIRE(layout.stacks.size() == 1);
  CHECK(layout.stacks[0].size_bytes == 129024 * 512);
  bool noted = false;
  for (const auto& note : layout.stacks[0].notes) noted |= note.find("past the end of the disk") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("a disk without a table is one stack: the filesystem on the whole disk") {
  test_support::TempTree tree;
  const auto image = tree.root() / "whole.img";
  must_run("truncate -s 16M '" + image.string() + "'");
  must_run("mkswap -q '" + image.string() + "' >/dev/null");
  const DiskLayout layout = read_image(image);
  CHECK_FALSE(layout.table);
  REQUIRE(layout.stacks.size() == 1);
  CHECK_FALSE(layout.stacks[0].partition);
  REQUIRE(layout.stacks[0].filesystem);
  CHECK(layout.stacks[0].filesystem->type == "swap");
}

TEST_CASE("a protective MBR whose GPT cannot be read is noted once, not again for the whole-disk stack") {
  test_support::TempTree tree;
  const auto image = tree.root() / "pmbr.img";
  must_run("truncate -s 64M '" + image.string() + "'");
  must_run("sgdisk -n 1:2048:+16M '" + image.string() + "' >/dev/null");
  // Both header CRCs broken: libblkid finds the PMBR and no table.
  for (const char* offset : {"528", "67108368"}) {
    must_run(std::string("printf 'XXXX' | dd of='") + image.string() + "' bs=1 seek=" + offset +
             " conv=notrunc status=none");
  }
  const DiskLayout layout = read_image(image);
  CHECK_FALSE(layout.table);
  REQUIRE(layout.stacks.size() == 1);
  int said = 0;
  for (const auto& note : layout.notes) said += note.find("PMBR") != std::string::npos ? 1 : 0;
  for (const auto& note : layout.stacks[0].notes) said += note.find("PMBR") != std::string::npos ? 1 : 0;
  CHECK(said == 1);
}

namespace {

// A PV head lvm2 wrote (tests/data/layout/lvm/README.md), found from this
// source file's path as the compiler saw it.
std::vector<uint8_t> lvm_fixture(const std::string& name) {
  std::filesystem::path source(__FILE__);
  if (source.is_relative()) {
    source = std::filesystem::read_symlink("/proc/self/exe").parent_path() / ".." / ".." / source;
  }
  std::ifstream in(source.parent_path() / ".." / "data" / "layout" / "lvm" / name, std::ios::binary);
  if (!in) FAIL("cannot read the fixture " << name);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_at(const std::filesystem::path& image, uint64_t offset, const std::vector<uint8_t>& bytes) {
  std::fstream out(image, std::ios::binary | std::ios::in | std::ios::out);
  out.seekp(static_cast<std::streamoff>(offset));
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

}  // namespace

TEST_CASE("an md array built on a logical volume is named, not followed with the wrong offsets") {
  // pv_lvs_pv0: a PV at the disk's start, 1 MiB data area start, 4 MiB
  // extents; LV "data" begins at its extent 0 (1 MiB) and has 4 extents.
  test_support::TempTree tree;
  const auto image = tree.root() / "md-on-lv.img";
  must_run("truncate -s 64M '" + image.string() + "'");
  write_at(image, 0, lvm_fixture("pv_lvs_pv0.bin"));
  MdSuperblock sb;
  sb.minor_version = 2;
  sb.superblock_offset_bytes = 4096;
  sb.data_offset_bytes = 1 * MiB;
  sb.data_size_bytes = 15 * MiB;
  sb.level = 1;
  sb.raid_disks = 2;
  sb.role = 0;
  sb.array_uuid = "0123456789abcdef0123456789abcdef";
  sb.name = "test:lv";
  std::vector<uint8_t> block(kMdSuperblockBytes);
  encode_md_superblock(sb, block);
  write_at(image, 1 * MiB + 4096, block);
  must_run("mkfs.ext4 -q -F -E offset=" + std::to_string(2 * MiB) + " '" + image.string() + "' 4096");
  const DiskLayout layout = read_image(image);
  REQUIRE(layout.stacks.size() == 1);
  const LayoutStack& stack = layout.stacks[0];
  REQUIRE(stack.lvm);
  CHECK(stack.lvm->vg_name == "h1vg");
  // Without the rule the md data offset (1 MiB, from the LV's start) would
  // be added to the disk's start, and the PV's data area placed behind it.
  CHECK_FALSE(stack.md);
  CHECK_FALSE(stack.filesystem);
  bool noted = false;
  for (const auto& note : stack.notes) noted |= note.find("md RAID member inside lvm:data") != std::string::npos;
  CHECK(noted);
}
