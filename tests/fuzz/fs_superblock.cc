// Filesystem superblocks from untrusted bytes: decode_filesystem for every
// type it decodes (and one it does not), and the properties its header
// promises: sizes are powers of two or whole multiples of the block, never
// wrapped, and labels are printable. The input is decoded twice: as the
// filesystem's head itself (short heads included), and copied both to byte
// 0 and to 64 KiB of an otherwise zero kFilesystemHeadBytes buffer, so that
// small inputs reach btrfs's superblock too (the btrfs seed is its
// superblock alone).
#include <algorithm>
#include <vector>

#include "fuzz_target.h"
#include "layout/fs_superblock.h"

using namespace ssdprobe;

namespace {

constexpr const char* kTypes[] = {"xfs", "ext2", "ext3", "ext4", "ext4dev", "f2fs", "btrfs", "swap", "vfat"};
constexpr size_t kBtrfsSuperblock = 65536;

bool power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

void check(const char* type, const FilesystemInfo& fs) {
  FUZZ_CHECK(fs.type == type);
  const uint64_t block = fs.block_bytes;
  FUZZ_CHECK(block == 0 || (power_of_two(block) && block >= 512 && block <= 65536));
  for (const auto& multiple : {fs.stripe_unit_bytes, fs.stripe_width_bytes, fs.segment_bytes}) {
    if (multiple) FUZZ_CHECK(block != 0 && *multiple >= block && *multiple % block == 0);
  }
  if (fs.section_bytes) FUZZ_CHECK(fs.segment_bytes && *fs.section_bytes % *fs.segment_bytes == 0);
  if (fs.node_bytes) FUZZ_CHECK(power_of_two(*fs.node_bytes) && *fs.node_bytes >= block);
  if (fs.sector_bytes) FUZZ_CHECK(power_of_two(*fs.sector_bytes) && *fs.sector_bytes >= 512);
  if (fs.flex_bg_groups) FUZZ_CHECK(power_of_two(*fs.flex_bg_groups) && *fs.flex_bg_groups >= 2);
  for (const char c : fs.label) FUZZ_CHECK(c >= 0x20 && c <= 0x7e);
  if (std::string(type) == "vfat") FUZZ_CHECK(block == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  // Zero-filled between runs (only the copied ranges are cleared again), so
  // a 128 KiB buffer costs no 128 KiB of work per input.
  static std::vector<uint8_t> head(kFilesystemHeadBytes, 0);
  const size_t at_start = std::min(size, head.size());
  const size_t at_btrfs = std::min(size, head.size() - kBtrfsSuperblock);
  std::copy_n(data, at_start, head.begin());
  std::copy_n(data, at_btrfs, head.begin() + kBtrfsSuperblock);
  fuzz::expect_rejection([&] {
    for (const char* type : kTypes) {
      check(type, decode_filesystem(type, in));
      check(type, decode_filesystem(type, head));
    }
  });
  std::fill_n(head.begin(), at_start, 0);
  std::fill_n(head.begin() + kBtrfsSuperblock, at_btrfs, 0);
  return 0;
}
