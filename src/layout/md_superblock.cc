#include "layout/md_superblock.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "firmware/byte_reader.h"

namespace ssdprobe {

namespace {

// Byte offsets of struct mdp_superblock_1 (Linux include/uapi/linux/raid/md_p.h;
// every field little-endian):
//   0 magic (le32)          4 major_version (le32)   8 feature_map (le32)
//  16 set_uuid[16]         32 set_name[32]          64 ctime (le64)
//  72 level (le32, signed: -1 linear)                76 layout (le32)
//  80 size (le64, sectors)  88 chunksize (le32, sectors)   92 raid_disks (le32)
// 128 data_offset (le64, sectors)  136 data_size (le64, sectors)
// 144 super_offset (le64, sectors) 160 dev_number (le32)
// 192 utime (le64)  200 events (le64)  208 resync_offset (le64)
// 216 sb_csum (le32)  220 max_dev (le32)  256 dev_roles[max_dev] (le16 each)
namespace field {
constexpr size_t magic = 0;
constexpr size_t major_version = 4;
constexpr size_t set_uuid = 16;
constexpr size_t set_name = 32;
constexpr size_t level = 72;
constexpr size_t layout = 76;
constexpr size_t size = 80;
constexpr size_t chunksize = 88;
constexpr size_t raid_disks = 92;
constexpr size_t data_offset = 128;
constexpr size_t data_size = 136;
constexpr size_t super_offset = 144;
constexpr size_t dev_number = 160;
constexpr size_t events = 200;
constexpr size_t resync_offset = 208;
constexpr size_t sb_csum = 216;
constexpr size_t max_dev = 220;
constexpr size_t dev_roles = 256;
}  // namespace field

constexpr size_t kFixedBytes = 256;
constexpr size_t kUuidBytes = 16;
constexpr size_t kNameBytes = 32;
// mdadm's limit for a v1 superblock ("1K allows 384 devices", md_p.h).
constexpr uint32_t kMaxRaidDisks = 384;
// The kernel (drivers/md/md.c super_1_load) refuses max_dev > (4096-256)/2:
// the roles must fit in the 4 KiB superblock.
constexpr uint32_t kMaxDevSlots = (kMdSuperblockBytes - kFixedBytes) / 2;
// Sector counts above 2^53 would overflow once converted to bytes and added.
constexpr uint64_t kMaxSectors = uint64_t{1} << 53;
// md_p.h dev_roles: 0xffff spare, 0xfffe faulty; md.c 0xfffd journal.
constexpr uint16_t kFirstSpecialRole = 0xfffd;

size_t superblock_bytes(uint32_t max_dev) { return kFixedBytes + 2 * size_t{max_dev}; }

// sb_csum, as drivers/md/md.c calc_sb_1_csum computes it: the sum of the
// superblock's little-endian 32-bit words over its 256 + 2 * max_dev bytes
// (sb_csum itself counted as 0; a trailing 16-bit role, when max_dev is odd,
// added as a 16-bit value) in 64 bits, then the high 32 bits added once to
// the low 32 bits, truncated to 32 bits.
uint32_t superblock_checksum(const ByteReader& sb, uint32_t max_dev) {
  const size_t bytes = superblock_bytes(max_dev);
  uint64_t sum = 0;
  size_t offset = 0;
  for (; offset + 4 <= bytes; offset += 4) {
    if (offset != field::sb_csum) sum += sb.le32(offset);
  }
  if (offset + 2 <= bytes) sum += sb.le16(offset);
  return static_cast<uint32_t>((sum & 0xffffffffu) + (sum >> 32));
}

bool known_level(int level) {
  switch (level) {
    case -1: case 0: case 1: case 4: case 5: case 6: case 10: return true;
    default: return false;
  }
}

// Levels whose data is spread over the members in chunks.
bool striped_level(int level) { return level == 0 || level == 4 || level == 5 || level == 6 || level == 10; }

bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

uint64_t v10_offset(uint64_t member_size) { return ((member_size / kFormatSectorBytes - 16) & ~uint64_t{7}) * kFormatSectorBytes; }

// Each minor version has one place (md.c super_1_load): 1.1 at sector 0, 1.2
// at sector 8, 1.0 by v10_offset of the member size (checked when known).
bool location_matches(int minor_version, uint64_t superblock_offset, uint64_t member_size) {
  switch (minor_version) {
    case 1: return superblock_offset == 0;
    case 2: return superblock_offset == 8 * kFormatSectorBytes;
    case 0:
      if (member_size == 0) return superblock_offset % kFormatSectorBytes == 0;
      return member_size / kFormatSectorBytes >= 16 && superblock_offset == v10_offset(member_size);
    default: return false;
  }
}

// The data area must not overlap the superblock (md.c super_1_load refuses
// a 1.1/1.2 superblock that runs into the data) and must lie in the member.
bool data_area_fits(int minor_version, uint64_t super_sector, uint32_t max_dev, uint64_t data_offset,
                    uint64_t data_size, uint64_t member_size) {
  if (data_offset >= kMaxSectors || data_size >= kMaxSectors || data_size == 0) return false;
  const uint64_t data_end = data_offset + data_size;
  if (minor_version == 0) {
    if (data_end > super_sector) return false;
  } else {
    const uint64_t superblock_sectors = (superblock_bytes(max_dev) + kFormatSectorBytes - 1) / kFormatSectorBytes;
    if (data_offset < super_sector + superblock_sectors) return false;
  }
  return member_size == 0 || data_end <= member_size / kFormatSectorBytes;
}

// dev_roles[dev_number]: the slot this member fills; spares, faulty and
// journal devices (and roles beyond raid_disks) fill none.
int member_role(const ByteReader& sb, uint32_t dev_number, uint32_t max_dev, int raid_disks) {
  if (dev_number >= max_dev) return -1;
  const uint16_t role = sb.le16(field::dev_roles + 2 * size_t{dev_number});
  if (role >= kFirstSpecialRole || role >= raid_disks) return -1;
  return role;
}

void put_le(std::span<uint8_t> out, size_t offset, uint64_t value, size_t length) {
  for (size_t i = 0; i < length; ++i) out[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void put_uuid(std::span<uint8_t> out, const std::string& uuid) {
  if (uuid.size() != 2 * kUuidBytes) throw std::invalid_argument("md array uuid must be 32 hex digits: " + uuid);
  for (size_t i = 0; i < kUuidBytes; ++i) {
    const int high = hex_digit(uuid[2 * i]);
    const int low = hex_digit(uuid[2 * i + 1]);
    if (high < 0 || low < 0) throw std::invalid_argument("md array uuid must be 32 hex digits: " + uuid);
    out[field::set_uuid + i] = static_cast<uint8_t>(high * 16 + low);
  }
}

}  // namespace

std::vector<std::pair<int, uint64_t>> md_superblock_locations(uint64_t member_size) {
  std::vector<std::pair<int, uint64_t>> locations{{1, 0}, {2, 8 * kFormatSectorBytes}};
  if (member_size / kFormatSectorBytes >= 16) locations.emplace_back(0, v10_offset(member_size));
  return locations;
}

std::optional<MdSuperblock> decode_md_superblock(std::span<const uint8_t> bytes, int minor_version,
                                                 uint64_t superblock_offset, uint64_t member_size) {
  const ByteReader sb(bytes);
  if (!sb.has(0, kFixedBytes)) return std::nullopt;
  if (sb.le32(field::magic) != kMdSuperblockMagic || sb.le32(field::major_version) != 1) return std::nullopt;

  const uint32_t max_dev = sb.le32(field::max_dev);
  if (max_dev > kMaxDevSlots || !sb.has(0, superblock_bytes(max_dev))) return std::nullopt;
  if (sb.le32(field::sb_csum) != superblock_checksum(sb, max_dev)) return std::nullopt;

  if (!location_matches(minor_version, superblock_offset, member_size)) return std::nullopt;
  const uint64_t super_sector = sb.le64(field::super_offset);
  if (superblock_offset % kFormatSectorBytes != 0 || super_sector != superblock_offset / kFormatSectorBytes) return std::nullopt;

  const int level = static_cast<int32_t>(sb.le32(field::level));
  const uint32_t raid_disks = sb.le32(field::raid_disks);
  const uint32_t chunk_sectors = sb.le32(field::chunksize);
  if (!known_level(level) || raid_disks < 1 || raid_disks > kMaxRaidDisks) return std::nullopt;
  if (chunk_sectors != 0 && !is_power_of_two(chunk_sectors)) return std::nullopt;
  if (striped_level(level) && chunk_sectors == 0) return std::nullopt;

  const uint64_t data_offset = sb.le64(field::data_offset);
  const uint64_t data_size = sb.le64(field::data_size);
  if (!data_area_fits(minor_version, super_sector, max_dev, data_offset, data_size, member_size)) {
    return std::nullopt;
  }

  MdSuperblock out;
  out.minor_version = minor_version;
  out.superblock_offset_bytes = superblock_offset;
  out.data_offset_bytes = data_offset * kFormatSectorBytes;
  out.data_size_bytes = data_size * kFormatSectorBytes;
  // raid1 has no chunks; linear keeps its "rounding" in the same field.
  out.chunk_bytes = striped_level(level) ? uint64_t{chunk_sectors} * kFormatSectorBytes : 0;
  out.level = level;
  out.layout = static_cast<int32_t>(sb.le32(field::layout));
  out.raid_disks = static_cast<int>(raid_disks);
  out.role = member_role(sb, sb.le32(field::dev_number), max_dev, out.raid_disks);
  out.array_uuid = sb.hex(field::set_uuid, kUuidBytes);
  out.name = sb.ascii(field::set_name, kNameBytes);
  return out;
}

void encode_md_superblock(const MdSuperblock& sb, std::span<uint8_t> out) {
  if (out.size() < kMdSuperblockBytes) throw std::invalid_argument("md superblock needs 4096 bytes");
  if (sb.name.size() > kNameBytes) throw std::invalid_argument("md array name longer than 32 bytes: " + sb.name);
  if (sb.raid_disks < 1 || sb.raid_disks > static_cast<int>(kMaxRaidDisks)) {
    throw std::invalid_argument("md raid_disks must be 1..384");
  }
  std::fill(out.begin(), out.begin() + kMdSuperblockBytes, uint8_t{0});
  put_le(out, field::magic, kMdSuperblockMagic, 4);
  put_le(out, field::major_version, 1, 4);
  put_uuid(out, sb.array_uuid);
  std::copy(sb.name.begin(), sb.name.end(), out.begin() + field::set_name);
  put_le(out, field::level, static_cast<uint32_t>(sb.level), 4);
  put_le(out, field::layout, static_cast<uint32_t>(sb.layout), 4);
  put_le(out, field::size, sb.data_size_bytes / kFormatSectorBytes, 8);
  put_le(out, field::chunksize, sb.chunk_bytes / kFormatSectorBytes, 4);
  put_le(out, field::raid_disks, static_cast<uint32_t>(sb.raid_disks), 4);
  put_le(out, field::data_offset, sb.data_offset_bytes / kFormatSectorBytes, 8);
  put_le(out, field::data_size, sb.data_size_bytes / kFormatSectorBytes, 8);
  put_le(out, field::super_offset, sb.superblock_offset_bytes / kFormatSectorBytes, 8);
  put_le(out, field::events, 1, 8);
  put_le(out, field::resync_offset, ~uint64_t{0}, 8);  // in sync

  // Slot i holds role i; a spare sits in the slot after the last role.
  const bool active = sb.role >= 0 && sb.role < sb.raid_disks;
  const auto raid_disks = static_cast<uint32_t>(sb.raid_disks);
  const uint32_t dev_number = active ? static_cast<uint32_t>(sb.role) : raid_disks;
  const uint32_t max_dev = std::max(raid_disks, dev_number + 1);
  put_le(out, field::dev_number, dev_number, 4);
  put_le(out, field::max_dev, max_dev, 4);
  for (uint32_t slot = 0; slot < max_dev; ++slot) put_le(out, field::dev_roles + 2 * slot, slot < raid_disks ? slot : 0xffff, 2);
  put_le(out, field::sb_csum, superblock_checksum(ByteReader(out), max_dev), 4);
}

}  // namespace ssdprobe
