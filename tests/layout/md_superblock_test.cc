// md RAID v1.x member superblocks: built from the format (encode_md_superblock
// writes struct mdp_superblock_1 of md_p.h), decoded back at each minor
// version's location; corrupted magic, checksum and out-of-range fields are
// refused; the 1.0 location follows the kernel's rule.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "layout/md_superblock.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kMiB = 1024 * 1024;

// A raid5 member of a 4-disk array with a 512 KiB chunk, as mdadm --create
// --metadata=1.2 --level=5 --raid-devices=4 --chunk=512 makes it on a 1 GiB
// member: superblock at 4 KiB, data from 1 MiB.
MdSuperblock raid5_member() {
  MdSuperblock sb;
  sb.minor_version = 2;
  sb.superblock_offset_bytes = 4096;
  sb.data_offset_bytes = 1 * kMiB;
  sb.data_size_bytes = 1023 * kMiB;
  sb.chunk_bytes = 512 * 1024;
  sb.level = 5;
  sb.layout = 2;  // left-symmetric
  sb.raid_disks = 4;
  sb.role = 2;
  sb.array_uuid = "0123456789abcdef0011223344556677";
  sb.name = "host:md0";
  return sb;
}

std::vector<uint8_t> encoded(const MdSuperblock& sb) {
  std::vector<uint8_t> bytes(kMdSuperblockBytes, 0xee);
  encode_md_superblock(sb, bytes);
  return bytes;
}

std::optional<MdSuperblock> decoded(const std::vector<uint8_t>& bytes, const MdSuperblock& at, uint64_t member_size) {
  return decode_md_superblock(bytes, at.minor_version, at.superblock_offset_bytes, member_size);
}

void put_le32(std::vector<uint8_t>& bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}
uint32_t le32(const std::vector<uint8_t>& bytes, size_t offset) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | bytes[offset + i];
  return value;
}

// drivers/md/md.c calc_sb_1_csum, written again here so the test checks the
// encoder against the kernel's definition: le32 words over 256 + 2 * max_dev
// bytes with sb_csum (byte 216) as 0, a last le16 if max_dev is odd, summed
// in 64 bits and folded once.
uint32_t kernel_sb_csum(const std::vector<uint8_t>& bytes) {
  int size = 256 + static_cast<int>(le32(bytes, 220)) * 2;
  uint64_t sum = 0;
  size_t offset = 0;
  for (; size >= 4; size -= 4, offset += 4) sum += offset == 216 ? 0 : le32(bytes, offset);
  if (size == 2) sum += bytes[offset] | (bytes[offset + 1] << 8);
  return static_cast<uint32_t>((sum & 0xffffffffu) + (sum >> 32));
}

// Changes a 32-bit field and recomputes sb_csum, so only the field's own
// check can refuse it.
void set_field_keep_checksum(std::vector<uint8_t>& bytes, size_t offset, uint32_t value) {
  put_le32(bytes, offset, value);
  if (256 + 2 * uint64_t{le32(bytes, 220)} <= bytes.size()) put_le32(bytes, 216, kernel_sb_csum(bytes));
}

void check_same(const MdSuperblock& got, const MdSuperblock& want) {
  CHECK(got.minor_version == want.minor_version);
  CHECK(got.superblock_offset_bytes == want.superblock_offset_bytes);
  CHECK(got.data_offset_bytes == want.data_offset_bytes);
  CHECK(got.data_size_bytes == want.data_size_bytes);
  CHECK(got.chunk_bytes == want.chunk_bytes);
  CHECK(got.level == want.level);
  CHECK(got.layout == want.layout);
  CHECK(got.raid_disks == want.raid_disks);
  CHECK(got.role == want.role);
  CHECK(got.array_uuid == want.array_uuid);
  CHECK(got.name == want.name);
}

}  // namespace

TEST_CASE("md: a v1.2 raid5 member superblock decodes to the fields it was built from", "[md]") {
  const MdSuperblock want = raid5_member();
  const auto bytes = encoded(want);
  // Byte 0 is the magic 0xa92b4efc, little-endian, as md_p.h defines it.
  CHECK(bytes[0] == 0xfc);
  CHECK(bytes[3] == 0xa9);
  const auto got = decoded(bytes, want, 1024 * kMiB);
  REQUIRE(got);
  check_same(*got, want);
  CHECK(got->data_disks() == 3);
  CHECK(got->chunk_bytes * got->data_disks() == 1536 * 1024);  // stripe width
}

TEST_CASE("md: each minor version decodes at its own location", "[md]") {
  const uint64_t member = 256 * kMiB + 7 * 512;  // not a multiple of 4 KiB
  const auto locations = md_superblock_locations(member);
  REQUIRE(locations.size() == 3);
  for (const auto& [minor, offset] : locations) {
    INFO("1." << minor << " at " << offset);
    MdSuperblock want = raid5_member();
    want.minor_version = minor;
    want.superblock_offset_bytes = offset;
    if (minor == 0) {  // data first, superblock behind it
      want.data_offset_bytes = 0;
      want.data_size_bytes = 255 * kMiB;
    } else {
      want.data_size_bytes = 255 * kMiB;
    }
    const auto got = decoded(encoded(want), want, member);
    REQUIRE(got);
    check_same(*got, want);
    // The same bytes are not a superblock of another minor version.
    for (const auto& [other_minor, other_offset] : locations) {
      if (other_minor != minor) CHECK_FALSE(decode_md_superblock(encoded(want), other_minor, other_offset, member));
    }
  }
}

TEST_CASE("md: the 1.0 superblock sits 8 to 12 KiB from the end, on a 4 KiB boundary (md.c super_1_load)", "[md]") {
  auto v10 = [](uint64_t member_size) {
    for (const auto& [minor, offset] : md_superblock_locations(member_size)) {
      if (minor == 0) return std::optional<uint64_t>(offset);
    }
    return std::optional<uint64_t>();
  };
  CHECK(md_superblock_locations(1 * kMiB)[0] == std::pair<int, uint64_t>(1, 0));
  CHECK(md_superblock_locations(1 * kMiB)[1] == std::pair<int, uint64_t>(2, 4096));
  CHECK(v10(1 * kMiB) == 1 * kMiB - 8192);
  // (sectors - 16) & ~7: 2057 sectors -> 2041 -> 2040 sectors.
  CHECK(v10(2057 * 512) == 2040 * 512);
  CHECK(v10(2063 * 512) == 2040 * 512);
  CHECK(v10(2064 * 512) == 2048 * 512);
  CHECK(v10(16 * 512) == 0);
  CHECK_FALSE(v10(15 * 512));
  CHECK_FALSE(v10(0));
  // A 1.0 superblock at the wrong place for the member's size is refused.
  MdSuperblock sb = raid5_member();
  sb.minor_version = 0;
  sb.superblock_offset_bytes = 2040 * 512;
  sb.data_offset_bytes = 0;
  sb.data_size_bytes = 2040 * 512;  // data up to the superblock
  const auto bytes = encoded(sb);
  CHECK(decode_md_superblock(bytes, 0, 2040 * 512, 2057 * 512));
  CHECK_FALSE(decode_md_superblock(bytes, 0, 2040 * 512, 2064 * 512));
  CHECK(decode_md_superblock(bytes, 0, 2040 * 512, 0));  // member size unknown
  // Data running into a 1.0 superblock is refused.
  sb.data_size_bytes = 2041 * 512;
  CHECK_FALSE(decode_md_superblock(encoded(sb), 0, 2040 * 512, 2057 * 512));
}

TEST_CASE("md: raid levels decode with their data disks and chunks", "[md]") {
  struct Case {
    int level;
    int raid_disks;
    uint64_t chunk_bytes;
    int data_disks;
  };
  const Case cases[] = {
      {0, 3, 64 * 1024, 3}, {1, 2, 0, 1},         {4, 5, 128 * 1024, 4},
      {5, 4, 512 * 1024, 3}, {6, 6, 256 * 1024, 4}, {10, 4, 512 * 1024, 2}, {-1, 2, 0, 1},
  };
  for (const auto& c : cases) {
    INFO("level " << c.level);
    MdSuperblock want = raid5_member();
    want.level = c.level;
    want.raid_disks = c.raid_disks;
    want.chunk_bytes = c.chunk_bytes;
    want.role = 1;
    const auto got = decoded(encoded(want), want, 0);
    REQUIRE(got);
    check_same(*got, want);
    CHECK(got->data_disks() == c.data_disks);
  }
}

TEST_CASE("md: raid1 and linear report no chunk even if the field holds one", "[md]") {
  MdSuperblock sb = raid5_member();
  sb.level = 1;
  sb.raid_disks = 2;
  sb.role = 0;
  sb.chunk_bytes = 64 * 1024;  // mdadm writes 0; linear keeps --rounding here
  const auto got = decoded(encoded(sb), sb, 0);
  REQUIRE(got);
  CHECK(got->chunk_bytes == 0);
}

TEST_CASE("md: spares and faulty members have role -1", "[md]") {
  MdSuperblock sb = raid5_member();
  sb.role = -1;  // written as a spare (0xffff) in the slot after the last role
  auto bytes = encoded(sb);
  auto got = decoded(bytes, sb, 0);
  REQUIRE(got);
  CHECK(got->role == -1);
  // dev_number 4 -> dev_roles[4] at 256 + 8: mark it faulty (0xfffe).
  REQUIRE(le32(bytes, 160) == 4);
  const uint32_t word = le32(bytes, 264);
  set_field_keep_checksum(bytes, 264, (word & 0xffff0000u) | 0xfffe);
  got = decoded(bytes, sb, 0);
  REQUIRE(got);
  CHECK(got->role == -1);
  // ... and an active role beyond raid_disks is not a slot either.
  set_field_keep_checksum(bytes, 264, (word & 0xffff0000u) | 7);
  got = decoded(bytes, sb, 0);
  REQUIRE(got);
  CHECK(got->role == -1);
  set_field_keep_checksum(bytes, 264, (word & 0xffff0000u) | 3);
  got = decoded(bytes, sb, 0);
  REQUIRE(got);
  CHECK(got->role == 3);
}

TEST_CASE("md: sb_csum is what the kernel computes, for odd and even role counts", "[md]") {
  for (int raid_disks : {3, 4}) {
    MdSuperblock sb = raid5_member();
    sb.raid_disks = raid_disks;
    sb.role = 0;
    const auto bytes = encoded(sb);
    INFO("max_dev " << le32(bytes, 220));
    CHECK(le32(bytes, 216) == kernel_sb_csum(bytes));
    CHECK(decoded(bytes, sb, 0));
  }
}

TEST_CASE("md: a wrong magic, major version or checksum is refused", "[md]") {
  const MdSuperblock sb = raid5_member();
  const auto good = encoded(sb);
  REQUIRE(decoded(good, sb, 0));

  auto bytes = good;
  set_field_keep_checksum(bytes, 0, 0xa92b4efd);
  CHECK_FALSE(decoded(bytes, sb, 0));

  bytes = good;
  set_field_keep_checksum(bytes, 4, 0);  // v0.90's major is 0
  CHECK_FALSE(decoded(bytes, sb, 0));

  for (size_t offset : {size_t{40}, size_t{92}, size_t{216}, size_t{256}, size_t{262}}) {
    INFO("byte " << offset << " flipped");
    bytes = good;
    bytes[offset] ^= 0x10;
    CHECK_FALSE(decoded(bytes, sb, 0));
  }
  // Bytes after dev_roles[max_dev] are outside the checksum and do not matter.
  bytes = good;
  bytes[1000] ^= 0x10;
  CHECK(decoded(bytes, sb, 0));
}

TEST_CASE("md: out-of-range fields are refused even with a valid checksum", "[md]") {
  const MdSuperblock sb = raid5_member();
  const auto good = encoded(sb);
  auto refused_with = [&](size_t offset, uint32_t value, uint64_t member_size = 0) {
    auto bytes = good;
    set_field_keep_checksum(bytes, offset, value);
    return !decoded(bytes, sb, member_size);
  };
  // Sanity: rewriting a field with its own value keeps it valid.
  CHECK_FALSE(refused_with(88, 1024));
  CHECK(refused_with(88, 1000));        // chunksize not a power of two
  CHECK(refused_with(88, 0));           // raid5 without a chunk
  CHECK(refused_with(92, 0));           // raid_disks 0
  CHECK(refused_with(92, 385));         // more than a v1 superblock holds
  CHECK_FALSE(refused_with(92, 384));
  CHECK(refused_with(72, 3));           // no raid3 in md
  CHECK(refused_with(72, 0xfffffffc));  // multipath (-4), gone from the kernel
  CHECK(refused_with(144, 0));          // super_offset says sector 0, read at 4 KiB
  CHECK_FALSE(refused_with(220, 1920));  // roles up to the end of the 4 KiB superblock
  CHECK(refused_with(128, 4));          // data_offset inside the superblock
  CHECK(refused_with(136, 0));          // data_size 0
  CHECK(refused_with(140, 0x200000));   // data_size beyond 2^53 sectors
  // data_offset + data_size must fit in the member when its size is known.
  CHECK_FALSE(refused_with(88, 1024, 1024 * kMiB));
  CHECK(refused_with(88, 1024, 1024 * kMiB - 512));
}

TEST_CASE("md: more roles than fit in 4 KiB are refused, even when the buffer holds them", "[md]") {
  const MdSuperblock sb = raid5_member();
  auto bytes = encoded(sb);
  bytes.resize(8192, 0);
  set_field_keep_checksum(bytes, 220, 1920);
  CHECK(decoded(bytes, sb, 0));
  set_field_keep_checksum(bytes, 220, 1921);
  CHECK(le32(bytes, 216) == kernel_sb_csum(bytes));
  CHECK_FALSE(decoded(bytes, sb, 0));
}

TEST_CASE("md: short buffers and wrong locations are refused", "[md]") {
  const MdSuperblock sb = raid5_member();
  const auto bytes = encoded(sb);
  // 256 fixed bytes + 2 * max_dev (4) roles = 264 bytes are needed.
  CHECK(decode_md_superblock(std::span(bytes).first(264), 2, 4096, 0));
  CHECK_FALSE(decode_md_superblock(std::span(bytes).first(263), 2, 4096, 0));
  CHECK_FALSE(decode_md_superblock(std::span(bytes).first(100), 2, 4096, 0));
  CHECK_FALSE(decode_md_superblock(bytes, 2, 4096 + 512, 0));
  CHECK_FALSE(decode_md_superblock(bytes, 3, 4096, 0));
  CHECK_FALSE(decode_md_superblock(bytes, -1, 4096, 0));
}

TEST_CASE("md: encode refuses what it cannot write", "[md]") {
  std::vector<uint8_t> small(4095);
  CHECK_THROWS_AS(encode_md_superblock(raid5_member(), small), std::invalid_argument);
  std::vector<uint8_t> out(4096);
  MdSuperblock sb = raid5_member();
  sb.array_uuid = "not hex";
  CHECK_THROWS_AS(encode_md_superblock(sb, out), std::invalid_argument);
  sb = raid5_member();
  sb.name = std::string(33, 'n');
  CHECK_THROWS_AS(encode_md_superblock(sb, out), std::invalid_argument);
  sb = raid5_member();
  sb.raid_disks = 0;
  CHECK_THROWS_AS(encode_md_superblock(sb, out), std::invalid_argument);
}
