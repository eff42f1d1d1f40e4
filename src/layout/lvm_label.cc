// LVM2 label, pv_header and metadata area header. Field offsets below cite
// lvm2's lib/label/label.h and lib/format_text/layout.h; every integer is
// little-endian ("_xl" in lvm2's names) and every disk offset is in bytes.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string_view>

#include "firmware/byte_reader.h"
#include "layout/lvm_label.h"

namespace ssdprobe {

namespace {

// lib/label/label.h: LABEL_SCAN_SECTORS, LABEL_SIZE.
constexpr size_t kLabelScanSectors = 4;
constexpr size_t kLabelBytes = 512;

// struct label_header (lib/label/label.h).
namespace label_field {
constexpr size_t id = 0;          // int8_t id[8] = "LABELONE"
constexpr size_t sector_xl = 8;   // uint64_t: the sector this label is in
constexpr size_t crc_xl = 16;     // uint32_t: CRC from offset_xl to the sector's end
constexpr size_t offset_xl = 20;  // uint32_t: where the pv_header starts in the sector
constexpr size_t type = 24;       // int8_t type[8] = "LVM2 001"
constexpr size_t end = 32;
}  // namespace label_field

// struct pv_header (lib/format_text/layout.h), from the label's offset_xl.
namespace pv_field {
constexpr size_t uuid = 0;          // int8_t pv_uuid[32] (ID_LEN), no dashes
constexpr size_t device_size = 32;  // uint64_t device_size_xl, bytes
constexpr size_t disk_areas = 40;   // struct disk_locn[]: data areas, 0, metadata areas, 0
constexpr size_t uuid_bytes = 32;
}  // namespace pv_field
// struct disk_locn: uint64_t offset, uint64_t size (bytes); offset 0 ends a list.
constexpr size_t kDiskLocnBytes = 16;

// struct mda_header (lib/format_text/layout.h), MDA_HEADER_SIZE 512.
namespace mda_field {
constexpr size_t checksum = 0;    // uint32_t checksum_xl: CRC of bytes 4..511
constexpr size_t magic = 4;       // int8_t magic[16] = FMTT_MAGIC
constexpr size_t version = 20;    // uint32_t, FMTT_VERSION 1
constexpr size_t size = 32;       // uint64_t: the metadata area's size (header included)
constexpr size_t raw_locns = 40;  // struct raw_locn[], offset 0 ends the list
constexpr size_t header_bytes = 512;
}  // namespace mda_field
// struct raw_locn: uint64_t offset (from the mda_header), uint64_t size,
// uint32_t checksum (CRC of the text), uint32_t flags.
namespace raw_locn_field {
constexpr size_t offset = 0;
constexpr size_t size = 8;
constexpr size_t checksum = 16;
constexpr size_t flags = 20;
constexpr uint32_t ignored = 1;  // RAW_LOCN_IGNORED: LVM does not keep this copy current
}  // namespace raw_locn_field
constexpr std::array<uint8_t, 16> kMdaMagic{' ', 'L', 'V', 'M', '2', ' ', 'x', '[',
                                            '5', 'A', '%', 'r', '0', 'N', '*', '>'};

std::array<uint32_t, 256> crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) != 0 ? 0xedb88320u : 0);
    table[i] = crc;
  }
  return table;
}

// lib/uuid/uuid.c: an id is 32 characters of [0-9a-zA-Z!#].
bool valid_uuid(const ByteReader& r, size_t offset) {
  for (size_t i = 0; i < pv_field::uuid_bytes; ++i) {
    const char c = static_cast<char>(r.u8(offset + i));
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '!' || c == '#';
    if (!ok) return false;
  }
  return true;
}

// One disk_locn list from `offset` inside the label sector, or nullopt if it
// is not terminated inside it. `offset` moves past the terminator.
std::optional<std::vector<std::pair<uint64_t, uint64_t>>> disk_locn_list(const ByteReader& sector, size_t& offset) {
  std::vector<std::pair<uint64_t, uint64_t>> areas;
  for (; sector.has(offset, kDiskLocnBytes); offset += kDiskLocnBytes) {
    const uint64_t area_offset = sector.le64(offset);
    if (area_offset == 0) {
      offset += kDiskLocnBytes;
      return areas;
    }
    areas.emplace_back(area_offset, sector.le64(offset + 8));
  }
  return std::nullopt;
}

// An area lies inside the device, starts on a sector past the label sector,
// and (size 0 meaning "to the end" for the data area) ends inside it.
bool area_fits(uint64_t offset, uint64_t size, uint64_t device_size, size_t label_end) {
  if (offset % kFormatSectorBytes != 0 || offset < label_end || offset > device_size) return false;
  return size <= device_size - offset;
}

std::optional<LvmLabel> decode_label_sector(const ByteReader& sector, size_t sector_number) {
  if (!sector.equals(label_field::id, "LABELONE") || !sector.equals(label_field::type, "LVM2 001")) {
    return std::nullopt;
  }
  if (sector.le64(label_field::sector_xl) != sector_number) return std::nullopt;
  const auto covered = sector.bytes().subspan(label_field::offset_xl, kLabelBytes - label_field::offset_xl);
  if (sector.le32(label_field::crc_xl) != lvm_crc(kLvmInitialCrc, covered)) return std::nullopt;

  const uint32_t pv_header = sector.le32(label_field::offset_xl);
  if (pv_header < label_field::end || !sector.has(pv_header, pv_field::disk_areas)) return std::nullopt;
  if (!valid_uuid(sector, pv_header + pv_field::uuid)) return std::nullopt;
  const uint64_t device_size = sector.le64(pv_header + pv_field::device_size);
  if (device_size == 0 || device_size > uint64_t{std::numeric_limits<int64_t>::max()}) return std::nullopt;

  size_t offset = pv_header + pv_field::disk_areas;
  const auto data_areas = disk_locn_list(sector, offset);
  if (!data_areas || data_areas->empty()) return std::nullopt;
  const auto metadata_areas = disk_locn_list(sector, offset);
  if (!metadata_areas) return std::nullopt;

  const size_t label_end = (sector_number + 1) * kFormatSectorBytes;
  for (const auto& [area_offset, size] : *data_areas) {
    if (!area_fits(area_offset, size, device_size, label_end)) return std::nullopt;
  }
  for (const auto& [area_offset, size] : *metadata_areas) {
    if (size < 2 * mda_field::header_bytes || !area_fits(area_offset, size, device_size, label_end)) {
      return std::nullopt;
    }
  }

  LvmLabel label;
  label.pv.label_offset_bytes = sector_number * kFormatSectorBytes;
  label.pv.pv_uuid = sector.ascii(pv_header + pv_field::uuid, pv_field::uuid_bytes);
  label.pv.pe_start_bytes = data_areas->front().first;
  label.metadata_areas = *metadata_areas;
  return label;
}

// The text raw_locn `locn` points at: (size - wrap) bytes at its offset,
// then `wrap` bytes from just after the header (lib/format_text/format-text.c
// reads a wrapped copy this way).
std::optional<std::string> read_locn(const ByteReader& area, size_t locn, uint64_t area_size) {
  const uint64_t offset = area.le64(locn + raw_locn_field::offset);
  const uint64_t size = area.le64(locn + raw_locn_field::size);
  const uint64_t buffer_bytes = area_size - mda_field::header_bytes;
  if (offset < mda_field::header_bytes || offset >= area_size || size == 0 || size > buffer_bytes) {
    return std::nullopt;
  }
  const uint64_t first = std::min(size, area_size - offset);
  const uint64_t wrap = size - first;
  if (!area.has(offset, first) || !area.has(mda_field::header_bytes, wrap)) return std::nullopt;
  // The wrapped part must not run into the part before the wrap.
  if (wrap > 0 && mda_field::header_bytes + wrap > offset) return std::nullopt;

  const auto head = area.bytes().subspan(offset, first);
  const auto tail = area.bytes().subspan(mda_field::header_bytes, wrap);
  if (lvm_crc(lvm_crc(kLvmInitialCrc, head), tail) != area.le32(locn + raw_locn_field::checksum)) {
    return std::nullopt;
  }
  std::string text(head.begin(), head.end());
  text.append(tail.begin(), tail.end());
  // lvm2 writes the text with its terminating NUL; nothing else may be NUL.
  while (!text.empty() && text.back() == '\0') text.pop_back();
  if (text.empty() || text.find('\0') != std::string::npos) return std::nullopt;
  return text;
}

}  // namespace

uint32_t lvm_crc(uint32_t initial, std::span<const uint8_t> bytes) {
  static const std::array<uint32_t, 256> table = crc_table();
  uint32_t crc = initial;
  for (const uint8_t b : bytes) crc = (crc >> 8) ^ table[(crc ^ b) & 0xff];
  return crc;
}

std::optional<LvmLabel> decode_lvm_label(std::span<const uint8_t> head) {
  for (size_t sector = 0; sector < kLabelScanSectors; ++sector) {
    if (head.size() < (sector + 1) * kFormatSectorBytes) break;
    auto label = decode_label_sector(ByteReader(head.subspan(sector * kFormatSectorBytes, kLabelBytes)), sector);
    if (label) return label;
  }
  return std::nullopt;
}

std::optional<std::string> lvm_metadata_text(std::span<const uint8_t> area) {
  const ByteReader header(area);
  if (!header.has(0, mda_field::header_bytes)) return std::nullopt;
  if (std::memcmp(area.data() + mda_field::magic, kMdaMagic.data(), kMdaMagic.size()) != 0) return std::nullopt;
  if (header.le32(mda_field::version) != 1) return std::nullopt;
  const auto covered = area.subspan(mda_field::magic, mda_field::header_bytes - mda_field::magic);
  if (header.le32(mda_field::checksum) != lvm_crc(kLvmInitialCrc, covered)) return std::nullopt;
  const uint64_t area_size = header.le64(mda_field::size);
  if (area_size < 2 * mda_field::header_bytes) return std::nullopt;

  // raw_locn 0 is the committed metadata (lvm2 keeps the precommitted copy,
  // when there is one, in the next slot). An offset of 0 means none written.
  const size_t locn = mda_field::raw_locns;
  if (header.le64(locn + raw_locn_field::offset) == 0) return std::nullopt;
  if ((header.le32(locn + raw_locn_field::flags) & raw_locn_field::ignored) != 0) return std::nullopt;
  return read_locn(header, locn, area_size);
}

}  // namespace ssdprobe
