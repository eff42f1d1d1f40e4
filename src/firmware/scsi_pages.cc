#include "firmware/scsi_pages.h"

#include <algorithm>
#include <fmt/format.h>

#include "firmware/byte_reader.h"
#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {

constexpr uint8_t kVpdBlockLimits = 0xB0;
constexpr uint8_t kVpdUnitSerial = 0x80;
constexpr uint8_t kDescriptorInformation = 0x00;
constexpr uint8_t kDescriptorAtaReturn = 0x09;

// The VPD page as far as both its page length and the buffer reach.
std::optional<ByteReader> vpd_page(std::span<const uint8_t> buffer, uint8_t page_code) {
  const ByteReader header(buffer);
  if (!header.has(0, 4) || header.u8(1) != page_code) return std::nullopt;
  const size_t length = std::min(buffer.size(), size_t{4} + header.be16(2));
  return ByteReader(buffer.first(length));
}

template <typename T>
std::optional<T> field(const ByteReader& r, size_t offset, size_t length) {
  if (!r.has(offset, length)) return std::nullopt;
  return static_cast<T>(r.be(offset, length));
}

void decode_unmap_limits(const ByteReader& r, BlockLimitsVpd& b) {
  b.maximum_unmap_lba_count = field<uint32_t>(r, 20, 4);
  b.maximum_unmap_block_descriptor_count = field<uint32_t>(r, 24, 4);
  b.optimal_unmap_granularity = field<uint32_t>(r, 28, 4);
  if (r.has(32, 4)) {
    b.ugavalid = (r.u8(32) & 0x80) != 0;
    b.unmap_granularity_alignment = r.be32(32) & 0x7fffffffu;
  }
  b.maximum_write_same_length = field<uint64_t>(r, 36, 8);
}

AtaStatusReturn decode_ata_return(const ByteReader& r, size_t at) {
  AtaStatusReturn a;
  a.extend = (r.u8(at + 2) & 0x01) != 0;
  a.error = r.u8(at + 3);
  a.count = r.u8(at + 5);
  a.lba = uint64_t{r.u8(at + 7)} | uint64_t{r.u8(at + 9)} << 8 | uint64_t{r.u8(at + 11)} << 16;
  if (a.extend) {
    a.count |= static_cast<uint16_t>(r.u8(at + 4) << 8);
    a.lba |= uint64_t{r.u8(at + 6)} << 24 | uint64_t{r.u8(at + 8)} << 32 | uint64_t{r.u8(at + 10)} << 40;
  }
  a.device = r.u8(at + 12);
  a.status = r.u8(at + 13);
  return a;
}

void decode_descriptors(const ByteReader& r, size_t end, SenseData& s) {
  size_t at = 8;
  while (r.has(at, 2) && at + 2 <= end) {
    const uint8_t type = r.u8(at);
    const size_t length = size_t{2} + r.u8(at + 1);
    if (at + length > end || !r.has(at, length)) break;
    if (type == kDescriptorAtaReturn && length >= 14) s.ata_return = decode_ata_return(r, at);
    if (type == kDescriptorInformation && length >= 12 && (r.u8(at + 2) & 0x80)) s.information = r.be64(at + 4);
    at += length;
  }
}

std::optional<SenseData> decode_descriptor_sense(const ByteReader& r, SenseData s) {
  if (!r.has(1, 1)) return std::nullopt;
  s.sense_key = r.u8(1) & 0x0f;
  if (r.has(2, 1)) s.asc = r.u8(2);
  if (r.has(3, 1)) s.ascq = r.u8(3);
  const size_t end = std::min(r.size(), size_t{8} + r.u8(7));
  decode_descriptors(r, end, s);
  return s;
}

std::optional<SenseData> decode_fixed_sense(const ByteReader& r, SenseData s) {
  if (!r.has(2, 1)) return std::nullopt;
  s.sense_key = r.u8(2) & 0x0f;
  if ((r.u8(0) & 0x80) && r.has(3, 4)) s.information = r.be32(3);
  const size_t end = r.has(7, 1) ? std::min(r.size(), size_t{8} + r.u8(7)) : r.size();
  if (end > 12) s.asc = r.u8(12);
  if (end > 13) s.ascq = r.u8(13);
  return s;
}

const char* asc_text(uint8_t asc, uint8_t ascq) {
  struct Entry {
    uint8_t asc, ascq;
    const char* text;
  };
  static constexpr Entry kTable[] = {
      {0x00, 0x00, "no additional sense information"},
      {0x00, 0x1d, "ATA pass through information available"},
      {0x04, 0x00, "logical unit not ready, cause not reportable"},
      {0x04, 0x02, "logical unit not ready, initializing command required"},
      {0x11, 0x00, "unrecovered read error"},
      {0x20, 0x00, "invalid command operation code"},
      {0x24, 0x00, "invalid field in CDB"},
      {0x25, 0x00, "logical unit not supported"},
      {0x26, 0x00, "invalid field in parameter list"},
      {0x29, 0x00, "power on, reset, or bus device reset occurred"},
      {0x3a, 0x00, "medium not present"},
      {0x44, 0x00, "internal target failure"},
  };
  for (const auto& e : kTable)
    if (e.asc == asc && e.ascq == ascq) return e.text;
  return nullptr;
}

}  // namespace

std::optional<uint64_t> ReadCapacity16::capacity_bytes() const {
  if (last_lba == UINT64_MAX) return std::nullopt;
  return checked_mul(last_lba + 1, block_length);
}

std::optional<uint64_t> ReadCapacity16::physical_block_bytes() const {
  return checked_mul(block_length, uint64_t{1} << lbppbe);
}

std::optional<ReadCapacity16> decode_read_capacity16(std::span<const uint8_t> buffer) {
  const ByteReader r(buffer);
  if (!r.has(0, 16)) return std::nullopt;
  ReadCapacity16 c;
  c.last_lba = r.be64(0);
  c.block_length = r.be32(8);
  c.p_type = (r.u8(12) >> 1) & 0x07;
  c.prot_en = (r.u8(12) & 0x01) != 0;
  c.p_i_exponent = r.u8(13) >> 4;
  c.lbppbe = r.u8(13) & 0x0f;
  c.lbpme = (r.u8(14) & 0x80) != 0;
  c.lbprz = (r.u8(14) & 0x40) != 0;
  c.lowest_aligned_lba = r.be16(14) & 0x3fff;
  return c;
}

std::optional<BlockLimitsVpd> decode_block_limits_vpd(std::span<const uint8_t> buffer) {
  const auto page = vpd_page(buffer, kVpdBlockLimits);
  if (!page) return std::nullopt;
  const ByteReader& r = *page;
  BlockLimitsVpd b;
  b.page_length = ByteReader(buffer).be16(2);
  if (r.has(4, 1)) b.wsnz = (r.u8(4) & 0x01) != 0;
  b.maximum_compare_and_write_length = field<uint8_t>(r, 5, 1);
  b.optimal_transfer_length_granularity = field<uint16_t>(r, 6, 2);
  b.maximum_transfer_length = field<uint32_t>(r, 8, 4);
  b.optimal_transfer_length = field<uint32_t>(r, 12, 4);
  b.maximum_prefetch_length = field<uint32_t>(r, 16, 4);
  decode_unmap_limits(r, b);
  return b;
}

std::optional<std::string> decode_unit_serial_vpd(std::span<const uint8_t> buffer) {
  const auto page = vpd_page(buffer, kVpdUnitSerial);
  if (!page) return std::nullopt;
  return page->ascii(4, page->size() - 4);
}

std::optional<StandardInquiry> decode_standard_inquiry(std::span<const uint8_t> buffer) {
  const ByteReader r(buffer);
  if (!r.has(0, 36)) return std::nullopt;
  StandardInquiry q;
  q.peripheral_device_type = r.u8(0) & 0x1f;
  q.removable = (r.u8(1) & 0x80) != 0;
  q.version = r.u8(2);
  q.vendor = r.ascii(8, 8);
  q.product = r.ascii(16, 16);
  q.revision = r.ascii(32, 4);
  return q;
}

std::optional<SenseData> decode_sense(std::span<const uint8_t> buffer) {
  const ByteReader r(buffer);
  if (!r.has(0, 1)) return std::nullopt;
  SenseData s;
  s.response_code = r.u8(0) & 0x7f;
  s.deferred = s.response_code == 0x71 || s.response_code == 0x73;
  s.descriptor_format = s.response_code == 0x72 || s.response_code == 0x73;
  if (s.descriptor_format) return decode_descriptor_sense(r, s);
  if (s.response_code == 0x70 || s.response_code == 0x71) return decode_fixed_sense(r, s);
  return std::nullopt;
}

const char* sense_key_name(uint8_t key) {
  static constexpr const char* kNames[16] = {
      "NO SENSE",        "RECOVERED ERROR", "NOT READY",       "MEDIUM ERROR",   "HARDWARE ERROR", "ILLEGAL REQUEST",
      "UNIT ATTENTION",  "DATA PROTECT",    "BLANK CHECK",     "VENDOR SPECIFIC", "COPY ABORTED",  "ABORTED COMMAND",
      "reserved",        "VOLUME OVERFLOW", "MISCOMPARE",      "COMPLETED"};
  return kNames[key & 0x0f];
}

std::string describe_sense(const SenseData& sense) {
  std::string text = sense_key_name(sense.sense_key);
  if (sense.asc && sense.ascq) {
    text += fmt::format(", ASC/ASCQ {:02X}h/{:02X}h", *sense.asc, *sense.ascq);
    if (const char* meaning = asc_text(*sense.asc, *sense.ascq)) text += fmt::format(" ({})", meaning);
  }
  if (sense.ata_return) {
    text += fmt::format(", ATA status {:02X}h error {:02X}h", sense.ata_return->status, sense.ata_return->error);
  }
  return text;
}

bool is_ata_passthrough_success(const SenseData& sense) {
  return (sense.sense_key == 0x00 || sense.sense_key == 0x01) && sense.asc == 0x00 && sense.ascq == 0x1d;
}

}  // namespace ssdprobe
