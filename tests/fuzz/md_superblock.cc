// md RAID v1.x superblocks from untrusted bytes (layout/md_superblock.h).
// The decoder promises never to throw (not even ssdprobe::Error), so any
// exception is a finding. Input:
//   byte 0      bits 0-1: minor version (3: 1.0 at the location the member
//               size gives), bit 2: repair sb_csum so the fuzzer gets past
//               it, bit 3: the member size is known
//   bytes 1-8   member size, little-endian
//   bytes 9-    the superblock
// Properties: what decodes is in range, encodes, and decodes back the same.
#include <vector>

#include "fuzz_target.h"
#include "layout/md_superblock.h"

using namespace ssdprobe;

namespace {

uint64_t le(const uint8_t* p, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | p[i];
  return value;
}

// drivers/md/md.c calc_sb_1_csum (the decoder's own definition is tested
// against this in tests/layout/md_superblock_test.cc).
void repair_checksum(std::vector<uint8_t>& sb) {
  if (sb.size() < 256) return;
  const uint64_t max_dev = le(&sb[220], 4);
  if (max_dev > 1920 || 256 + 2 * max_dev > sb.size()) return;
  int size = 256 + static_cast<int>(max_dev) * 2;
  uint64_t sum = 0;
  size_t offset = 0;
  for (; size >= 4; size -= 4, offset += 4) sum += offset == 216 ? 0 : le(&sb[offset], 4);
  if (size == 2) sum += le(&sb[offset], 2);
  const auto csum = static_cast<uint32_t>((sum & 0xffffffffu) + (sum >> 32));
  for (int i = 0; i < 4; ++i) sb[216 + i] = static_cast<uint8_t>(csum >> (8 * i));
}

bool same(const MdSuperblock& a, const MdSuperblock& b) {
  return a.minor_version == b.minor_version && a.superblock_offset_bytes == b.superblock_offset_bytes &&
         a.data_offset_bytes == b.data_offset_bytes && a.data_size_bytes == b.data_size_bytes &&
         a.chunk_bytes == b.chunk_bytes && a.level == b.level && a.layout == b.layout &&
         a.raid_disks == b.raid_disks && a.role == b.role && a.array_uuid == b.array_uuid && a.name == b.name;
}

void check_locations(uint64_t member_size) {
  for (const auto& [minor, offset] : md_superblock_locations(member_size)) {
    FUZZ_CHECK(minor >= 0 && minor <= 2);
    FUZZ_CHECK(offset % 4096 == 0);
    if (minor == 0) FUZZ_CHECK(offset + 8192 <= member_size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 9) return 0;
  const uint8_t flags = data[0];
  const uint64_t member_size = (flags & 8) != 0 ? le(data + 1, 8) : 0;
  std::vector<uint8_t> sb(data + 9, data + size);
  if ((flags & 4) != 0) repair_checksum(sb);
  check_locations(le(data + 1, 8));

  int minor = flags & 3;
  uint64_t offset = minor == 1 ? 0 : 4096;
  if (minor == 3) {
    minor = 0;
    const auto locations = md_superblock_locations(member_size);
    offset = locations.back().first == 0 ? locations.back().second : 0;
  } else if (minor == 0) {
    offset = sb.size() >= 152 ? le(&sb[144], 8) * 512 : 0;  // where the superblock says it is
  }

  const auto decoded = decode_md_superblock(sb, minor, offset, member_size);
  if (!decoded) return 0;
  FUZZ_CHECK(decoded->minor_version == minor && decoded->superblock_offset_bytes == offset);
  FUZZ_CHECK(decoded->raid_disks >= 1 && decoded->raid_disks <= 384);
  FUZZ_CHECK(decoded->role >= -1 && decoded->role < decoded->raid_disks);
  FUZZ_CHECK((decoded->chunk_bytes & (decoded->chunk_bytes - 1)) == 0);
  FUZZ_CHECK(decoded->data_disks() >= 1 && decoded->data_disks() <= decoded->raid_disks);
  FUZZ_CHECK(decoded->data_size_bytes > 0 && decoded->data_offset_bytes + decoded->data_size_bytes >= decoded->data_offset_bytes);
  if (member_size != 0) FUZZ_CHECK(decoded->data_offset_bytes + decoded->data_size_bytes <= member_size);
  FUZZ_CHECK(decoded->array_uuid.size() == 32 && decoded->name.size() <= 32);

  // The encoder writes as many role slots as raid_disks needs; a 1.1/1.2
  // superblock whose data starts right behind fewer slots would not fit them.
  const bool room_for_roles = minor == 0 || decoded->data_offset_bytes >= offset + 1536;
  if (room_for_roles) {
    std::vector<uint8_t> again(kMdSuperblockBytes);
    encode_md_superblock(*decoded, again);
    const auto round_trip = decode_md_superblock(again, minor, offset, member_size);
    FUZZ_CHECK(round_trip && same(*round_trip, *decoded));
  }
  return 0;
}
