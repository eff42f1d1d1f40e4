// The checks before a write: who uses a drive (fake /sys, mountinfo and
// swaps), and the confirmation that names device, range and preservation.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "core/error.h"
#include "safety/confirm.h"
#include "safety/device_identity.h"
#include "safety/exclusive_use.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

namespace {

struct FakeSystem {
  fs::path root = fs::temp_directory_path() / ("ssdprobe-safety-" + std::to_string(::getpid()));
  FakeSystem() {
    fs::create_directories(root / "sys/block/sdz/sdz1/holders");
    fs::create_directories(root / "sys/block/sdz/sdz2/holders");
    fs::create_directories(root / "sys/block/sdz/holders");
    put("sys/block/sdz/dev", "8:240\n");
    put("sys/block/sdz/sdz1/dev", "8:241\n");
    put("sys/block/sdz/sdz1/partition", "1\n");
    put("sys/block/sdz/sdz2/dev", "8:242\n");
    put("sys/block/sdz/sdz2/partition", "2\n");
    put("mountinfo", "22 1 8:241 / /srv rw,relatime - ext4 /dev/sdz1 rw\n29 1 0:5 / /dev rw - devtmpfs udev rw\n");
    put("swaps", "Filename\tType\tSize\tUsed\tPriority\n");
  }
  ~FakeSystem() { fs::remove_all(root); }
  void put(const std::string& rel, const std::string& text) { std::ofstream(root / rel) << text; }
  std::vector<DeviceUser> users() {
    return find_device_users("sdz", (root / "sys").string(), (root / "mountinfo").string(), (root / "swaps").string());
  }
};

Topology disk(const std::string& partition = "") {
  Topology t;
  t.disk_name = "sdz";
  t.partition_name = partition;
  return t;
}

}  // namespace

TEST_CASE("a mounted partition is a user of its disk, named with its mount point") {
  FakeSystem sys;
  const auto users = sys.users();
  REQUIRE(users.size() == 1);
  CHECK(users[0].device == "sdz1");
  CHECK(users[0].how == "mounted at /srv");
}

TEST_CASE("holders of the disk or of a partition are users") {
  FakeSystem sys;
  fs::create_directories(sys.root / "sys/block/sdz/sdz2/holders/dm-3");
  const auto users = sys.users();
  REQUIRE(users.size() == 2);
  CHECK(users[0].how == "held by dm-3");
}

TEST_CASE("whole-disk writes are refused when any partition is in use; a sibling partition is not") {
  FakeSystem sys;
  const auto refuse = [&](const Topology& t) {
    refuse_if_in_use(t, (sys.root / "sys").string(), (sys.root / "mountinfo").string(), (sys.root / "swaps").string());
  };
  try {
    refuse(disk());
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("/srv") != std::string::npos);
  }
  CHECK_THROWS_AS(refuse(disk("sdz1")), Error);
  CHECK_NOTHROW(refuse(disk("sdz2")));
}

TEST_CASE("confirmation: --yes proceeds, no terminal refuses, only 'yes' is yes") {
  WritePlanSummary plan{"/dev/sdz", "Model X", "S1", 1ull << 30, 512ull << 20, 256ull << 20, true, "/var/lib/j/",
                        false, 0, "", 0.0, "", "", 0, ""};
  std::FILE* out = std::tmpfile();
  CHECK_NOTHROW(confirm_write(plan, true, false, nullptr, out));
  CHECK_THROWS_AS(confirm_write(plan, false, false, nullptr, out), Error);
  for (const char* answer : {"yes\n", "y\n", "YES\n", "\n", ""}) {
    std::FILE* in = std::tmpfile();
    std::fputs(answer, in);
    std::rewind(in);
    if (std::string(answer) == "yes\n") {
      CHECK_NOTHROW(confirm_write(plan, false, true, in, out));
    } else {
      CHECK_THROWS_AS(confirm_write(plan, false, true, in, out), Error);
    }
    std::fclose(in);
  }
  std::fclose(out);
  const std::string text = describe_write_plan(plan);
  CHECK(text.find("/dev/sdz") != std::string::npos);
  CHECK(text.find("Model X") != std::string::npos);
  CHECK(text.find("536870912 to 805306368") != std::string::npos);
  plan.preserve = false;
  CHECK(describe_write_plan(plan).find("DESTROYED") != std::string::npos);
}

TEST_CASE("confirmation: control characters in path, model, serial and journal are shown escaped, not sent raw") {
  // A sysfs model that clears the line and writes a harmless-looking
  // device name over the real one; a serial that rings the bell; a path with
  // an OSC title sequence; a journal directory with a newline.
  WritePlanSummary plan{"/dev/sdz\x1b]0;title\x07", "\x1b[2K\rSpoofed Model\x9b", "S1\x07\x7f", 1ull << 30, 1ull << 20,
                        1ull << 20, true, "/var/lib/j\n  (safe)", false, 0, "", 0.0, "", "", 0, ""};
  const std::string text = describe_write_plan(plan);
  INFO(text);
  size_t newlines = 0;
  for (unsigned char c : text) {
    if (c == '\n') {
      ++newlines;
      continue;
    }
    CHECK((c >= 0x20 && c != 0x7f));  // no control byte reaches the terminal
  }
  CHECK(newlines == 4);  // the four lines of the plan, none added by the strings
  CHECK(text.find("/dev/sdz\\x1b]0;title\\x07") != std::string::npos);
  CHECK(text.find("model \\x1b[2K\\x0dSpoofed Model\\x9b  serial S1\\x07\\x7f") != std::string::npos);
  CHECK(text.find("/var/lib/j\\x0a  (safe)") != std::string::npos);
  // Printable text, multi-byte UTF-8 included, is shown unchanged.
  plan.model = "Café SSD ™";
  CHECK(describe_write_plan(plan).find("model Café SSD ™  serial") != std::string::npos);

  // What confirm_write prints is the escaped text too, the prompt included.
  plan.model = "\x1b[2KX";
  std::FILE* out = std::tmpfile();
  std::FILE* in = std::tmpfile();
  std::fputs("no\n", in);
  std::rewind(in);
  CHECK_THROWS_AS(confirm_write(plan, false, true, in, out), Error);
  std::rewind(out);
  std::string printed;
  for (int c; (c = std::fgetc(out)) != EOF;) printed.push_back(static_cast<char>(c));
  std::fclose(in);
  std::fclose(out);
  CHECK(printed.find('\x1b') == std::string::npos);
  CHECK(printed.find("Type 'yes' to write to /dev/sdz\\x1b]0;title\\x07: ") != std::string::npos);
}

TEST_CASE("a loop device sharing the target loop's backing file over an overlapping range lends it its users") {
  // Issue 18: two loop devices over one file are two names for the same
  // bytes; loop devices register no holders, so the scan must find them.
  FakeSystem sys;
  const fs::path backing = sys.root / "shared.img";
  sys.put("shared.img", "x");
  for (const auto& [name, number, offset] : {std::tuple{"loop7", "7:7", "0"}, {"loop8", "7:8", "1048576"},
                                             {"loop9", "7:9", "4194304"}}) {
    fs::create_directories(sys.root / "sys/block" / name / "loop");
    fs::create_directories(sys.root / "sys/block" / name / "holders");
    sys.put(std::string("sys/block/") + name + "/dev", std::string(number) + "\n");
    sys.put(std::string("sys/block/") + name + "/loop/backing_file", backing.string() + "\n");
    sys.put(std::string("sys/block/") + name + "/loop/offset", std::string(offset) + "\n");
    sys.put(std::string("sys/block/") + name + "/size", "4096\n");  // 2 MiB each
  }
  // loop8 (file bytes 1..3 MiB) is mounted; loop9 (4..6 MiB) is not.
  sys.put("mountinfo", "22 1 7:8 / /scratch rw - ext4 /dev/loop8 rw\n");
  const auto users_of = [&](const char* loop) {
    return find_device_users(loop, (sys.root / "sys").string(), (sys.root / "mountinfo").string(),
                             (sys.root / "swaps").string());
  };
  const auto seven = users_of("loop7");  // file bytes 0..2 MiB: meets loop8
  REQUIRE(seven.size() == 1);
  CHECK(seven[0].device == "loop7");
  CHECK(seven[0].how.find("/dev/loop8") != std::string::npos);
  CHECK(seven[0].how.find("mounted at /scratch") != std::string::npos);
  CHECK(users_of("loop9").empty());  // file bytes 4..6 MiB: meets nobody's in-use range
}

TEST_CASE("a version 1 journal proves its device only by a serial on both sides") {
  JournalIdentity v1;  // what a version 1 journal holds: path, rdev, size, block, model, serial, window
  v1.path = "/dev/loop3";
  v1.size_bytes = 64 << 20;
  JournalIdentity loop = v1;  // a loop device has no serial
  loop.canonical_path = "/dev/loop3";
  CHECK(identity_differences(v1, loop, false).empty());  // the size matches: nothing else is compared
  CHECK(unproven_version1_binding(v1, loop) == "neither the journal nor the device has a serial");
  JournalIdentity disk = loop;
  disk.serial = "S9";
  CHECK(unproven_version1_binding(v1, disk) == "the journal recorded no serial");
  v1.serial = "S9";
  CHECK_FALSE(unproven_version1_binding(v1, disk).has_value());  // compared, and equal
  CHECK(unproven_version1_binding(v1, loop) == "the device reports no serial");
  // A version 2 journal binds device numbers, backing file and WWID: a
  // missing serial is no gap there.
  JournalIdentity v2 = loop;
  CHECK_FALSE(unproven_version1_binding(v2, loop).has_value());
}

TEST_CASE("the question states the bound in the drive's terms, the cap and what it leaves out") {
  WritePlanSummary plan;
  plan.path = "/dev/nvme0n1";
  plan.device_size = 1ull << 40;
  plan.max_bytes_written = 2147483648;
  plan.max_bytes_breakdown = "write grid <= 1 GiB";
  plan.share_of_drive = "0.00036 % of the drive's endurance estimate of 600 TB (NVMe Endurance Group Information log)";
  plan.max_write_cap = 4ull << 30;
  plan.left_out = "SLC cache probe skipped: its fill needs up to 16 GiB, 3.8 GiB left of --max-write-bytes 4 GiB";
  const std::string text = describe_write_plan(plan);
  CHECK(text.find("  2 GiB is 0.00036 % of the drive's endurance estimate of 600 TB") != std::string::npos);
  CHECK(text.find("  capped by --max-write-bytes 4 GiB (4294967296 bytes)\n") != std::string::npos);
  CHECK(text.find("  left out: SLC cache probe skipped: its fill needs up to 16 GiB") != std::string::npos);
}
