#include "firmware/ata_identify.h"

#include <numeric>

#include "firmware/byte_reader.h"
#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {

uint16_t word(const ByteReader& r, size_t index) { return r.le16(2 * index); }

// Words [first, first + count) as ATA string: high byte first in each word.
std::string ata_string(const ByteReader& r, size_t first, size_t count) {
  std::string text;
  for (size_t w = first; w < first + count; ++w) {
    const uint16_t value = word(r, w);
    text += static_cast<char>(value >> 8);
    text += static_cast<char>(value & 0xff);
  }
  return clean_ascii(std::move(text));
}

void decode_sector_sizes(AtaIdentify& id) {
  if ((id.word106 & 0xd000) == 0x5000) {
    const uint64_t words = (uint64_t{id.word118} << 16) | id.word117;
    if (words != 0) id.logical_sector_bytes = words * 2;
  }
  if ((id.word106 & 0xe000) == 0x6000) id.logical_per_physical_log2 = id.word106 & 0xf;
  id.physical_sector_bytes = id.logical_sector_bytes << id.logical_per_physical_log2;
}

void decode_alignment(AtaIdentify& id) {
  if ((id.word209 & 0xc000) != 0x4000) return;
  const uint64_t offset = id.word209 & 0x3fff;
  id.alignment_offset_bytes = checked_mul(offset, id.logical_sector_bytes);
  const uint64_t per_physical = uint64_t{1} << id.logical_per_physical_log2;
  if (id.logical_per_physical_log2 > 1 && offset > 0 && offset < per_physical)
    id.lowest_aligned_lba = per_physical - offset;
}

uint64_t capacity(const ByteReader& r) {
  const bool lba48 = (word(r, 83) & 0x0400) != 0;
  if (lba48) return r.le64(200);
  return r.le32(120);
}

void decode_checksum(const ByteReader& r, AtaIdentify& id) {
  id.checksum_present = (id.word255 & 0xff) == 0xa5;
  const auto bytes = r.bytes();
  const unsigned sum = std::accumulate(bytes.begin(), bytes.end(), 0u);
  id.checksum_valid = id.checksum_present && (sum & 0xff) == 0;
}

}  // namespace

std::optional<AtaIdentify> decode_ata_identify(std::span<const uint8_t> buffer) {
  if (buffer.size() < kAtaIdentifyBytes) return std::nullopt;
  const ByteReader r(buffer.first(kAtaIdentifyBytes));
  AtaIdentify id;
  id.serial = ata_string(r, 10, 10);
  id.firmware = ata_string(r, 23, 4);
  id.model = ata_string(r, 27, 20);
  id.word69 = word(r, 69);
  id.word106 = word(r, 106);
  id.word117 = word(r, 117);
  id.word118 = word(r, 118);
  id.word169 = word(r, 169);
  id.word209 = word(r, 209);
  id.word217 = word(r, 217);
  id.word255 = word(r, 255);
  decode_sector_sizes(id);
  decode_alignment(id);
  id.trim_supported = (id.word169 & 0x0001) != 0;
  id.trim_deterministic = id.trim_supported && (id.word69 & 0x4000) != 0;
  id.trim_zeroes = id.trim_supported && (id.word69 & 0x0020) != 0;
  id.rotation_rate = id.word217;
  id.capacity_sectors = capacity(r);
  decode_checksum(r, id);
  return id;
}

}  // namespace ssdprobe
