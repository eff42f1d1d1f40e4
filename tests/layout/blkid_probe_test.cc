// probe_content: partition tables written by sfdisk and sgdisk into image
// files (the legacy starts of the seed articles: sector 63, sector 3, GPT at
// 34), read back through libblkid with exact byte offsets; content found at
// an offset; ambivalent content; descriptors that cannot be probed; and,
// as root with loop devices, a GPT on a disk with 4 KiB logical blocks.
#include "layout/blkid_probe.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <catch2/catch.hpp>

#include "shell_command.h"
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "core/error.h"
#include "core/unique_fd.h"
#include "temp_tree.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t MiB = 1024 * 1024;
const std::string kLinuxGuid = "0fc63daf-8483-4772-8e79-3d69d8477de4";  // sgdisk 8300
const std::string kLvmGuid = "e6d6d379-f507-44c2-a23c-238f2a3df928";    // sgdisk 8e00

using test_support::run_shell;

void must_run(const std::string& command) {
  const auto [status, output] = run_shell(command);
  INFO(command << "\n" << output);
  REQUIRE(status == 0);
}

bool have(const std::string& tool) {
  if (run_shell("command -v " + tool).first == 0) return true;
  WARN(tool << " is not installed (scripts/install-deps --tests installs it): this part is skipped");
  return false;
}

std::string sparse_file(const test_support::TempTree& dir, const std::string& name, uint64_t bytes) {
  const std::string file = dir.path(name).string();
  must_run("truncate -s " + std::to_string(bytes) + " '" + file + "'");
  return file;
}

// An sfdisk script written to `file` (512-byte sectors).
void sfdisk(const std::string& file, const std::string& script) {
  must_run("printf '" + script + "' | sfdisk -q '" + file + "'");
}

ContentProbe probe_file(const std::string& file, uint64_t offset = 0, uint64_t size = 0, uint32_t block = 512) {
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  return probe_content(fd.get(), offset, size, block);
}

std::string file_bytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void check_entry(const PartitionEntry& e, int number, uint64_t start_sector, uint64_t sectors, const std::string& type,
                 uint64_t sector_bytes = 512) {
  INFO("partition " << number);
  CHECK(e.number == number);
  CHECK(e.start_bytes == start_sector * sector_bytes);
  CHECK(e.size_bytes == sectors * sector_bytes);
  CHECK(e.type == type);
}

}  // namespace

TEST_CASE("MBR with a partition at sector 63 (the DOS/XP layout)", "[blkid][tools]") {
  if (!have("sfdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 64 * MiB);
  sfdisk(image, "label: dos\\nstart=63, size=20000, type=83\\nstart=20480, size=8192, type=8e\\n");
  const ContentProbe p = probe_file(image);
  CHECK(p.type.empty());
  CHECK(p.notes.empty());
  REQUIRE(p.table);
  CHECK(p.table->scheme == "dos");
  CHECK(p.table->sector_bytes == 512);
  REQUIRE(p.table->partitions.size() == 2);
  check_entry(p.table->partitions[0], 1, 63, 20000, "0x83");
  check_entry(p.table->partitions[1], 2, 20480, 8192, "0x8e");
  CHECK_FALSE(p.table->partitions[0].container);
  CHECK(p.table->partitions[0].name.empty());
}

TEST_CASE("MBR with a partition at sector 3 (1536 B)", "[blkid][tools]") {
  if (!have("sfdisk")) return;
  // sfdisk takes an explicit start=3 as given (it only aligns starts it
  // chooses itself), so no hand-written MBR is needed.
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 32 * MiB);
  sfdisk(image, "label: dos\\nstart=3, size=20000, type=83\\n");
  const ContentProbe p = probe_file(image);
  REQUIRE(p.table);
  REQUIRE(p.table->partitions.size() == 1);
  check_entry(p.table->partitions[0], 1, 3, 20000, "0x83");
  CHECK(p.table->partitions[0].start_bytes == 1536);
}

TEST_CASE("MBR extended partition: the container and two logical partitions numbered from 5", "[blkid][tools]") {
  if (!have("sfdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 64 * MiB);
  sfdisk(image,
         "label: dos\\nstart=2048, size=8192, type=83\\nstart=10240, size=61440, type=5\\n"
         "start=12288, size=8192, type=83\\nstart=22528, size=8192, type=82\\n");
  const ContentProbe p = probe_file(image);
  REQUIRE(p.table);
  REQUIRE(p.table->partitions.size() == 4);
  check_entry(p.table->partitions[0], 1, 2048, 8192, "0x83");
  check_entry(p.table->partitions[1], 2, 10240, 61440, "0x05");
  check_entry(p.table->partitions[2], 5, 12288, 8192, "0x83");
  check_entry(p.table->partitions[3], 6, 22528, 8192, "0x82");
  CHECK_FALSE(p.table->partitions[0].container);
  CHECK(p.table->partitions[1].container);
  CHECK_FALSE(p.table->partitions[2].container);
  CHECK_FALSE(p.table->partitions[3].container);
}

TEST_CASE("GPT with a partition at sector 34 (sgdisk -a 1)", "[blkid][tools]") {
  if (!have("sgdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 64 * MiB);
  must_run("sgdisk -a 1 -n 1:34:+8M -t 1:8300 -c 1:legacy '" + image + "'");
  const ContentProbe p = probe_file(image);
  REQUIRE(p.table);
  CHECK(p.table->scheme == "gpt");
  REQUIRE(p.table->partitions.size() == 1);
  check_entry(p.table->partitions[0], 1, 34, 8 * MiB / 512, kLinuxGuid);
  CHECK(p.table->partitions[0].name == "legacy");
}

TEST_CASE("GPT with partitions from sector 2048, names and type GUIDs", "[blkid][tools]") {
  if (!have("sgdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 64 * MiB);
  must_run("sgdisk -n 1:2048:+16M -t 1:8300 -n 2:0:+8M -t 2:8e00 -c 2:'pv one' '" + image + "'");
  const ContentProbe p = probe_file(image);
  REQUIRE(p.table);
  REQUIRE(p.table->partitions.size() == 2);
  check_entry(p.table->partitions[0], 1, 2048, 16 * MiB / 512, kLinuxGuid);
  check_entry(p.table->partitions[1], 2, 2048 + 16 * MiB / 512, 8 * MiB / 512, kLvmGuid);
  CHECK(p.table->partitions[0].name.empty());
  CHECK(p.table->partitions[1].name == "pv one");
}

TEST_CASE("content at an offset: the area is probed, starts count from the descriptor's byte 0", "[blkid][tools]") {
  const test_support::TempTree dir("ssdprobe-blkid");
  SECTION("an xfs image 1 MiB into a larger file") {
    if (!have("mkfs.xfs")) return;
    const std::string fs = sparse_file(dir, "xfs", 512 * MiB);
    must_run("mkfs.xfs -q -f '" + fs + "'");
    const std::string outer = sparse_file(dir, "outer", 520 * MiB);
    must_run("dd if='" + fs + "' of='" + outer + "' bs=1M seek=1 conv=notrunc,sparse status=none");
    const ContentProbe at_offset = probe_file(outer, MiB, 512 * MiB);
    CHECK(at_offset.type == "xfs");
    CHECK(at_offset.usage == "filesystem");
    CHECK(probe_file(outer, MiB, 0).type == "xfs");  // size 0: to the end
    CHECK(probe_file(outer).type.empty());           // nothing at byte 0
  }
  SECTION("a disk image with an MBR 1 MiB into a larger file") {
    if (!have("sfdisk")) return;
    const std::string disk = sparse_file(dir, "disk", 32 * MiB);
    sfdisk(disk, "label: dos\\nstart=63, size=20000, type=83\\n");
    const std::string outer = sparse_file(dir, "outer", 40 * MiB);
    must_run("dd if='" + disk + "' of='" + outer + "' bs=1M seek=1 conv=notrunc,sparse status=none");
    const ContentProbe p = probe_file(outer, MiB, 32 * MiB);
    REQUIRE(p.table);
    REQUIRE(p.table->partitions.size() == 1);
    CHECK(p.table->partitions[0].start_bytes == MiB + 63 * 512);
    CHECK(p.table->partitions[0].size_bytes == 20000 * 512);
  }
}

TEST_CASE("two signatures claiming the same area: an ambivalent note, no type", "[blkid][tools]") {
  if (!have("mkfs.xfs") || !have("mkfs.ext2")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "both", 512 * MiB);
  must_run("mkfs.xfs -q -f '" + image + "'");
  const std::string ext2 = sparse_file(dir, "ext2", 64 * MiB);
  must_run("mkfs.ext2 -q -F '" + ext2 + "'");
  // The ext2 superblock (bytes 1024-2047) next to xfs's at 0.
  must_run("dd if='" + ext2 + "' of='" + image + "' bs=1024 skip=1 seek=1 count=1 conv=notrunc status=none");
  const ContentProbe p = probe_file(image);
  CHECK(p.type.empty());
  REQUIRE(p.notes.size() == 1);
  CHECK_THAT(p.notes[0], Catch::Contains("ambivalent"));
}

TEST_CASE("probing reads only: bytes unchanged, file position put back", "[blkid][tools]") {
  if (!have("sgdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 8 * MiB);
  must_run("sgdisk -n 1:2048:+4M '" + image + "'");
  const std::string before = file_bytes(image);
  UniqueFd fd(::open(image.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  REQUIRE(::lseek(fd.get(), 12345, SEEK_SET) == 12345);
  const ContentProbe p = probe_content(fd.get(), 0, 0, 512);
  CHECK(p.table);
  CHECK(::lseek(fd.get(), 0, SEEK_CUR) == 12345);
  CHECK(file_bytes(image) == before);
}

namespace {

// zlib's CRC-32 (reflected 0xedb88320, inverted in and out), bit by bit: the
// GPT header's checksum, computed apart from the code under test.
uint32_t gpt_crc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) != 0 ? 0xedb88320u : 0);
  }
  return ~crc;
}

// Sets the entry count of the GPT header at `at` and makes its CRC valid again.
void set_gpt_entry_count(const std::string& file, uint64_t at, uint32_t entries) {
  UniqueFd fd(::open(file.c_str(), O_RDWR | O_CLOEXEC));
  REQUIRE(fd.valid());
  std::array<uint8_t, 92> h{};
  REQUIRE(::pread(fd.get(), h.data(), h.size(), static_cast<off_t>(at)) == 92);
  REQUIRE(std::string(h.begin(), h.begin() + 8) == "EFI PART");
  for (int i = 0; i < 4; ++i) h[80 + i] = static_cast<uint8_t>(entries >> (8 * i));
  for (int i = 0; i < 4; ++i) h[16 + i] = 0;
  const uint32_t crc = gpt_crc32(h.data(), h.size());
  for (int i = 0; i < 4; ++i) h[16 + i] = static_cast<uint8_t>(crc >> (8 * i));
  REQUIRE(::pwrite(fd.get(), h.data(), h.size(), static_cast<off_t>(at)) == 92);
}

}  // namespace

TEST_CASE("a GPT header naming an entry array near 4 GiB: libblkid is not run on it (it would read 4 GiB)", "[blkid][tools]") {
  if (!have("sgdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const uint64_t size = 8192 * MiB;  // large enough to hold the array: libblkid would read it all
  const std::string image = sparse_file(dir, "huge-gpt", size);
  must_run("sgdisk -n 1:2048:+16M '" + image + "' >/dev/null");
  // 33554431 entries of 128 B: 4 GiB less 128 B, just under libblkid's own limit.
  set_gpt_entry_count(image, 512, 33554431);
  set_gpt_entry_count(image, size - 512, 33554431);
  const auto started = std::chrono::steady_clock::now();
  const ContentProbe p = probe_file(image);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
  CHECK_FALSE(p.table);
  REQUIRE_FALSE(p.notes.empty());
  CHECK(p.type.empty());
  CHECK_THAT(p.notes[0], Catch::Contains("33554431 entries of 128 B") && Catch::Contains("not run"));
}

TEST_CASE("a GPT header with a larger but believable entry array is read", "[blkid][tools]") {
  if (!have("sgdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "big-gpt", 64 * MiB);
  // 1024 entries (128 KiB): sgdisk writes the array, so its CRC is right.
  must_run("sgdisk -S 1024 -n 1:2048:+16M '" + image + "' >/dev/null");
  const ContentProbe p = probe_file(image);
  REQUIRE(p.table);
  CHECK(p.table->scheme == "gpt");
  CHECK(p.notes.empty());
}

TEST_CASE("nothing there: empty result without notes", "[blkid]") {
  const test_support::TempTree dir("ssdprobe-blkid");
  dir.write("zeros", "");
  REQUIRE(::truncate(dir.path("zeros").c_str(), 4 * MiB) == 0);
  const ContentProbe zeros = probe_file(dir.path("zeros").string());
  CHECK(zeros.type.empty());
  CHECK(zeros.usage.empty());
  CHECK_FALSE(zeros.table);
  CHECK(zeros.notes.empty());
  REQUIRE(::truncate(dir.path("zeros").c_str(), 0) == 0);
  CHECK(probe_file(dir.path("zeros").string()).type.empty());
}

TEST_CASE("unusable descriptors and arguments throw Error", "[blkid]") {
  const test_support::TempTree dir("ssdprobe-blkid");
  dir.write("small", "");
  REQUIRE(::truncate(dir.path("small").c_str(), MiB) == 0);
  UniqueFd file(::open(dir.path("small").c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(file.valid());
  auto category_of = [](auto&& call) -> std::optional<ErrorCategory> {
    try {
      call();
    } catch (const Error& e) {
      return e.category();
    }
    return std::nullopt;
  };
  CHECK(category_of([&] { probe_content(-1, 0, 0, 512); }).has_value());
  CHECK(category_of([&] { probe_content(file.get(), MiB + 1, 0, 512); }) == ErrorCategory::target);
  CHECK(category_of([&] { probe_content(file.get(), 4096, MiB, 512); }) == ErrorCategory::target);
  CHECK(category_of([&] { probe_content(file.get(), 0, ~uint64_t{0}, 512); }) == ErrorCategory::target);
  CHECK(category_of([&] { probe_content(file.get(), 0, 0, 1000); }) == ErrorCategory::internal);
  CHECK(category_of([&] { probe_content(file.get(), 0, 0, 256); }) == ErrorCategory::internal);
  CHECK_FALSE(category_of([&] { probe_content(file.get(), MiB, 0, 512); }));  // an empty area: nothing found
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const UniqueFd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
  CHECK(category_of([&] { probe_content(read_end.get(), 0, 0, 512); }) == ErrorCategory::target);
  UniqueFd directory(::open(dir.root().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(directory.valid());
  CHECK(category_of([&] { probe_content(directory.get(), 0, 0, 512); }) == ErrorCategory::target);
  const int closed = ::dup(file.get());
  ::close(closed);
  CHECK(category_of([&] { probe_content(closed, 0, 0, 512); }).has_value());
}

namespace {

// A loop device over `file` with `block`-byte logical blocks, detached again
// on destruction.
class LoopDevice {
 public:
  LoopDevice(const std::string& file, uint32_t block) {
    const auto [status, output] = run_shell("losetup -f --show -b " + std::to_string(block) + " '" + file + "'");
    INFO(output);
    REQUIRE(status == 0);
    path_ = output.substr(0, output.find('\n'));
  }
  ~LoopDevice() {
    if (!path_.empty()) run_shell("losetup -d " + path_);
  }
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

TEST_CASE("GPT on a disk with 4 KiB logical blocks (root, loop device)", "[blkid][tools][root]") {
  if (::geteuid() != 0 || !std::ifstream("/dev/loop-control")) {
    WARN("not root or no loop devices: the 4 KiB-sector GPT test is skipped");
    return;
  }
  if (!have("losetup") || !have("sfdisk")) return;
  const test_support::TempTree dir("ssdprobe-blkid");
  const std::string image = sparse_file(dir, "disk", 64 * MiB);
  const LoopDevice loop(image, 4096);
  // sfdisk exits 0 even though the kernel (no partition parsing here) cannot re-read the table.
  must_run("printf 'label: gpt\\nstart=256, size=2048, name=alpha\\nstart=4096, size=1024\\n' | sfdisk -q " +
           loop.path());
  UniqueFd device(::open(loop.path().c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(device.valid());
  const ContentProbe p = probe_content(device.get(), 0, 0, 4096);
  REQUIRE(p.table);
  CHECK(p.table->scheme == "gpt");
  CHECK(p.table->sector_bytes == 4096);
  REQUIRE(p.table->partitions.size() == 2);
  check_entry(p.table->partitions[0], 1, 256, 2048, kLinuxGuid, 4096);
  check_entry(p.table->partitions[1], 2, 4096, 1024, kLinuxGuid, 4096);
  CHECK(p.table->partitions[0].name == "alpha");
  // The same bytes read with the wrong sector size: no table, and a note saying why.
  const ContentProbe wrong = probe_file(image, 0, 0, 512);
  CHECK_FALSE(wrong.table);
  REQUIRE(wrong.notes.size() == 1);
  CHECK_THAT(wrong.notes[0], Catch::Contains("PMBR") && Catch::Contains("512-byte sectors"));
  // ... and the GPT's signature where 4 KiB sectors put it, for the audit to name.
  REQUIRE(wrong.unread_table);
  CHECK(wrong.unread_table->type == "PMBR");
  CHECK(wrong.unread_table->gpt_sector_bytes == 4096u);
  CHECK_FALSE(p.unread_table);
}
