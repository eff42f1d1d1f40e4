// A journal binds its device field by field: a different drive at the same
// path, a renumbered loop device, a moved partition are each named; journals
// of a partition and of its whole disk are compared in disk coordinates; and
// a write session refuses a path that names another node than the one that
// was classified.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "safety/device_identity.h"
#include "safety/write_session.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

namespace {

JournalIdentity loop_disk() {
  JournalIdentity id;
  id.path = "/dev/loop3";
  id.canonical_path = "/dev/loop3";
  id.rdev = 0x703;
  id.disk = "loop3";
  id.disk_rdev = 0x703;
  id.size_bytes = 64 << 20;
  id.logical_block = 512;
  id.backing_dev = 0x801;
  id.backing_ino = 1234;
  id.window_offset = 8 << 20;
  id.window_length = 16 << 20;
  return id;
}

bool names(const std::vector<std::string>& differences, const std::string& field) {
  for (const auto& d : differences) {
    if (d.rfind(field + " ", 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("the same device has no differences") {
  CHECK(identity_differences(loop_disk(), loop_disk(), false).empty());
}

TEST_CASE("a renumbered loop device is caught by its backing file, whatever its path") {
  JournalIdentity now = loop_disk();
  now.backing_ino = 999;  // losetup -d, then another file of the same size on loop3
  const auto differences = identity_differences(loop_disk(), now, false);
  REQUIRE(differences.size() == 1);
  CHECK(names(differences, "backing_ino"));
  CHECK(differences[0].find("999") != std::string::npos);
  CHECK(names(identity_differences(loop_disk(), now, true), "backing_ino"));  // --device does not excuse it
}

TEST_CASE("--device skips the path and device numbers only") {
  JournalIdentity moved = loop_disk();
  moved.path = moved.canonical_path = "/dev/loop7";
  moved.rdev = moved.disk_rdev = 0x707;
  CHECK(identity_differences(loop_disk(), moved, true).empty());
  const auto without = identity_differences(loop_disk(), moved, false);
  CHECK(names(without, "canonical_path"));
  CHECK(names(without, "rdev"));
  moved.serial = "OTHER";
  moved.partition_start = 1 << 20;
  const auto with = identity_differences(loop_disk(), moved, true);
  CHECK(names(with, "serial"));
  CHECK(names(with, "partition_start"));
}

TEST_CASE("a version 1 journal binds size and, where both are known, serial") {
  JournalIdentity v1;
  v1.path = "loop3.img";  // relative, as version 1 stored file targets
  v1.size_bytes = 64 << 20;
  v1.serial = "";
  JournalIdentity now = loop_disk();
  CHECK(identity_differences(v1, now, false).empty());
  now.size_bytes = 32 << 20;
  CHECK(names(identity_differences(v1, now, false), "size_bytes"));
}

TEST_CASE("journals of a partition and of its disk overlap in disk coordinates") {
  JournalIdentity disk = loop_disk();  // disk bytes 8..24 MiB
  JournalIdentity partition = loop_disk();
  partition.rdev = 0x10300;
  partition.partition_start = 8 << 20;
  partition.window_offset = 4 << 20;  // disk bytes 12..28 MiB
  partition.window_length = 16 << 20;
  CHECK(windows_share_storage(partition, disk));
  CHECK(windows_share_storage(disk, partition));
  partition.window_offset = 16 << 20;  // disk bytes 24..40 MiB: touches, does not overlap
  CHECK_FALSE(windows_share_storage(partition, disk));
  JournalIdentity other = loop_disk();
  other.rdev = other.disk_rdev = 0x704;
  other.backing_ino = 0;
  CHECK_FALSE(windows_share_storage(other, disk));
}

TEST_CASE("loop devices over one backing file overlap in that file's coordinates") {
  // Issue 18: two loop devices over the same file are the same storage.
  JournalIdentity first = loop_disk();  // window 8..24 MiB of the loop
  first.backing_dev = 0x803;
  first.backing_ino = 4242;
  first.backing_offset = 0;
  JournalIdentity second = first;
  second.rdev = second.disk_rdev = 0x705;  // another loop device
  second.backing_offset = 20 << 20;        // starts 20 MiB into the file
  second.window_offset = 1 << 20;          // file bytes 21..37 MiB: overlaps the first's 8..24
  CHECK(windows_share_storage(first, second));
  CHECK(windows_share_storage(second, first));
  second.window_offset = 4 << 20;  // file bytes 24..40 MiB: touches, does not overlap
  CHECK_FALSE(windows_share_storage(first, second));
  second.backing_ino = 4243;  // another file
  second.window_offset = 1 << 20;
  CHECK_FALSE(windows_share_storage(first, second));
  // A file target and a loop device over it: the same bytes.
  JournalIdentity file = first;
  file.rdev = file.disk_rdev = 0;
  file.disk.clear();
  file.window_offset = 30 << 20;
  file.window_length = 4 << 20;  // file bytes 30..34 MiB, inside the second loop's window
  second.backing_ino = 4242;
  CHECK(windows_share_storage(file, second));
  CHECK_FALSE(windows_share_storage(file, first));
}

TEST_CASE("a write session refuses a path that now names another file") {
  const fs::path dir = fs::temp_directory_path() / ("ssdprobe-identity-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "target.img";
  std::ofstream(file).close();
  fs::resize_file(file, 64 << 20);
  Target target = open_target({.path = file.string(), .open_for_io = false});
  target.node.ino += 1;  // as if the name had been swapped after classification
  WriteSessionOptions options;
  options.preserve = false;
  try {
    WriteSession session(target, Region{8 << 20, 8 << 20}, options);
    FAIL("a swapped path was accepted");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("now names another file") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("a journal that did not record its loop's offset overlaps every window in the same file") {
  // Journals made before backing_offset was recorded: the loop could have
  // started anywhere in the file, so no window there is known to be clear.
  JournalIdentity old = loop_disk();
  old.backing_offset_known = false;
  JournalIdentity other = loop_disk();
  other.rdev = other.disk_rdev = 0x709;  // another loop device over the same file
  other.backing_offset = 48 << 20;
  other.window_offset = 1 << 20;  // file bytes 49..65 MiB: clear of 8..24 if the old loop started at 0
  CHECK(windows_share_storage(old, other));
  old.backing_offset_known = true;
  CHECK_FALSE(windows_share_storage(old, other));
  // ...and its offset is not compared when restoring.
  JournalIdentity now = loop_disk();
  now.backing_offset = 1 << 20;
  old.backing_offset_known = false;
  CHECK(identity_differences(old, now, false).empty());
}
