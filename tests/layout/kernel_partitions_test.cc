// read_kernel_partitions: a fake /sys in a temporary directory (sysfs as the
// kernel lays it out: /sys/block/DISK a symlink into /sys/devices, one
// directory per partition with `partition`, `start`, `size`,
// `alignment_offset`), and, as root with loop devices, partitions the test
// adds to a real loop device with `addpart`.
#include "layout/kernel_partitions.h"

#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>

#include "shell_command.h"
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "temp_tree.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

namespace {

using FakeSysfs = test_support::TempTree;

const fs::path kDisk = "devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1";

void partition(const FakeSysfs& sys, const std::string& name, const std::string& number, const std::string& start,
               const std::string& size, const std::string& alignment_offset) {
  const fs::path dir = kDisk / name;
  sys.write(dir / "partition", number);
  sys.write(dir / "start", start);
  sys.write(dir / "size", size);
  if (!alignment_offset.empty()) sys.write(dir / "alignment_offset", alignment_offset);
}

// nvme0n1 with what a whole disk has besides partitions (queue/, size,
// holders/, a `device` link).
void build_disk(const FakeSysfs& sys) {
  sys.write(kDisk / "size", "1000215216");
  sys.write(kDisk / "alignment_offset", "0");
  sys.write(kDisk / "queue" / "logical_block_size", "4096");
  sys.dir(kDisk / "holders");
  sys.link(kDisk / "device", "../../nvme0");
  sys.link("block/nvme0n1", "../" / kDisk);
}

}  // namespace

TEST_CASE("partitions from sysfs: 512-byte sectors to bytes, sorted by number", "[kernel_partitions]") {
  const FakeSysfs sys("ssdprobe-sysfs");
  build_disk(sys);
  partition(sys, "nvme0n1p10", "10", "4196352", "2048", "0");
  partition(sys, "nvme0n1p2", "2", "63", "20000", "3584");
  partition(sys, "nvme0n1p1", "1", "2048", "204800", "0");
  const auto parts = read_kernel_partitions("nvme0n1", sys.root().string());
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].number == 1);
  CHECK(parts[0].name == "nvme0n1p1");
  CHECK(parts[0].start_bytes == 2048u * 512);  // 512-byte units even on a 4 KiB-block disk
  CHECK(parts[0].size_bytes == 204800u * 512);
  CHECK(parts[0].alignment_offset == 0);
  CHECK(parts[1].number == 2);
  CHECK(parts[1].start_bytes == 63u * 512);
  CHECK(parts[1].size_bytes == 20000u * 512);
  CHECK(parts[1].alignment_offset == 3584);
  CHECK(parts[2].number == 10);  // numeric order, not the names' order
  CHECK(parts[2].name == "nvme0n1p10");
}

TEST_CASE("partitions from sysfs: what cannot be read is left out or unset", "[kernel_partitions]") {
  const FakeSysfs sys("ssdprobe-sysfs");
  build_disk(sys);
  partition(sys, "nvme0n1p1", "1", "2048", "2048", "");                       // no alignment_offset
  partition(sys, "nvme0n1p2", "2", "abc", "2048", "0");                       // start not a number
  partition(sys, "nvme0n1p3", "3", "36028797018963968", "1", "0");            // 2^55 sectors: bytes overflow
  partition(sys, "nvme0n1p4", "0", "4096", "2048", "0");                      // number 0
  partition(sys, "nvme0n1p5", "5", "4096", "", "0");                          // empty size
  partition(sys, "nvme0n1p6", "6", "-1", "2048", "0");                        // negative start
  partition(sys, "nvme0n1p7", "7", "8192", "2048", "-512");                   // negative alignment: kept
  partition(sys, "nvme0n1p8", "8 9", "8192", "2048", "0");                    // two numbers
  const auto parts = read_kernel_partitions("nvme0n1", sys.root().string());
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].number == 1);
  CHECK_FALSE(parts[0].alignment_offset);
  CHECK(parts[1].number == 7);
  CHECK(parts[1].alignment_offset == -512);
}

TEST_CASE("partitions from sysfs: none, unknown disks and names that are not names", "[kernel_partitions]") {
  const FakeSysfs sys("ssdprobe-sysfs");
  build_disk(sys);
  CHECK(read_kernel_partitions("nvme0n1", sys.root().string()).empty());
  CHECK(read_kernel_partitions("sdq", sys.root().string()).empty());
  partition(sys, "nvme0n1p1", "1", "2048", "2048", "0");
  CHECK(read_kernel_partitions("nvme0n1", sys.root().string()).size() == 1);
  for (const char* bad : {"", ".", "..", "../block/nvme0n1", "nvme0n1/"}) {
    INFO(bad);
    CHECK(read_kernel_partitions(bad, sys.root().string()).empty());
  }
  CHECK(read_kernel_partitions("nvme0n1", (sys.root() / "missing").string()).empty());
}

namespace {

using test_support::run_shell;

// A loop device over a sparse file with `block`-byte logical blocks; the
// partitions added through it are deleted and the device detached on
// destruction.
class LoopWithPartitions {
 public:
  LoopWithPartitions(const fs::path& file, uint32_t block) {
    const auto made = run_shell("truncate -s 64M '" + file.string() + "'");
    REQUIRE(made.first == 0);
    const auto [status, output] = run_shell("losetup -f --show -b " + std::to_string(block) + " '" + file.string() + "'");
    INFO(output);
    REQUIRE(status == 0);
    path_ = output.substr(0, output.find('\n'));
  }
  ~LoopWithPartitions() {
    for (const int number : added_) run_shell("delpart " + path_ + " " + std::to_string(number));
    if (!path_.empty()) run_shell("losetup -d " + path_);
  }
  LoopWithPartitions(const LoopWithPartitions&) = delete;
  LoopWithPartitions& operator=(const LoopWithPartitions&) = delete;

  // addpart counts in 512-byte sectors.
  void add(int number, uint64_t start_sector, uint64_t sectors) {
    const auto [status, output] = run_shell("addpart " + path_ + " " + std::to_string(number) + " " +
                                      std::to_string(start_sector) + " " + std::to_string(sectors));
    INFO(output);
    REQUIRE(status == 0);
    added_.push_back(number);
  }
  std::string name() const { return fs::path(path_).filename().string(); }

 private:
  std::string path_;
  std::vector<int> added_;
};

}  // namespace

TEST_CASE("partitions of a real loop device added with addpart (root)", "[kernel_partitions][root]") {
  if (::geteuid() != 0 || !std::ifstream("/dev/loop-control") || run_shell("command -v addpart").first != 0) {
    WARN("not root, no loop devices or no addpart: the real-kernel partition test is skipped");
    return;
  }
  const test_support::TempTree dir("ssdprobe-kparts");
  SECTION("512-byte blocks, a partition at sector 63") {
    LoopWithPartitions loop(dir.path("disk"), 512);
    loop.add(2, 63, 1000);
    loop.add(1, 2048, 8192);
    const auto parts = read_kernel_partitions(loop.name());
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].number == 1);
    CHECK(parts[0].name == loop.name() + "p1");
    CHECK(parts[0].start_bytes == 2048u * 512);
    CHECK(parts[0].size_bytes == 8192u * 512);
    CHECK(parts[0].alignment_offset.has_value());
    CHECK(parts[1].number == 2);
    CHECK(parts[1].start_bytes == 63u * 512);
    CHECK(parts[1].size_bytes == 1000u * 512);
  }
  SECTION("4 KiB blocks: sysfs still counts 512-byte sectors") {
    LoopWithPartitions loop(dir.path("disk"), 4096);
    loop.add(1, 256 * 8, 1024 * 8);
    const auto parts = read_kernel_partitions(loop.name());
    REQUIRE(parts.size() == 1);
    CHECK(parts[0].start_bytes == 256u * 4096);
    CHECK(parts[0].size_bytes == 1024u * 4096);
  }
}
