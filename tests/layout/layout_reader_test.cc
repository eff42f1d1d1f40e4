// The stack reader on disk images made by the real tools in files the test
// creates (no root, no loop device): the table's partitions, the filesystem
// inside one at its absolute offset, and a table that claims more than the
// image holds.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "layout/layout_reader.h"
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
