// Bounds-checked reads from a byte buffer a device returned. Every decoder in
// src/firmware reads through ByteReader, so no decoder can read past its
// buffer whatever its length: a field that does not fit reads as zero (or an
// empty string) and has() says whether it was there. NVMe, ATA and SCSI use
// different byte orders; the function names say which one is meant.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ssdprobe {

// 128-bit unsigned counters (NVMe SMART "data units", OCP media units).
__extension__ using uint128 = unsigned __int128;

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  size_t size() const { return bytes_.size(); }
  // True if bytes [offset, offset + length) lie inside the buffer.
  bool has(size_t offset, size_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }

  // True if the bytes at `offset` are `expected`, all inside the buffer.
  bool equals(size_t offset, std::string_view expected) const {
    return has(offset, expected.size()) && std::equal(expected.begin(), expected.end(), bytes_.begin() + offset,
                                                       [](char e, uint8_t b) { return static_cast<uint8_t>(e) == b; });
  }
  uint8_t u8(size_t offset) const { return has(offset, 1) ? bytes_[offset] : 0; }
  uint16_t le16(size_t offset) const { return static_cast<uint16_t>(le(offset, 2)); }
  uint32_t le32(size_t offset) const { return static_cast<uint32_t>(le(offset, 4)); }
  uint64_t le64(size_t offset) const { return le(offset, 8); }
  uint128 le128(size_t offset) const {
    if (!has(offset, 16)) return 0;
    return (static_cast<uint128>(le(offset + 8, 8)) << 64) | le(offset, 8);
  }
  // Little-endian unsigned integer of `length` (<= 8) bytes; 0 if it does not fit.
  uint64_t le(size_t offset, size_t length) const {
    if (length > 8 || !has(offset, length)) return 0;
    uint64_t value = 0;
    for (size_t i = length; i-- > 0;) value = (value << 8) | bytes_[offset + i];
    return value;
  }
  uint16_t be16(size_t offset) const { return static_cast<uint16_t>(be(offset, 2)); }
  uint32_t be32(size_t offset) const { return static_cast<uint32_t>(be(offset, 4)); }
  uint64_t be64(size_t offset) const { return be(offset, 8); }
  // Big-endian unsigned integer of `length` (<= 8) bytes; 0 if it does not fit.
  uint64_t be(size_t offset, size_t length) const {
    if (length > 8 || !has(offset, length)) return 0;
    uint64_t value = 0;
    for (size_t i = 0; i < length; ++i) value = (value << 8) | bytes_[offset + i];
    return value;
  }

  // ASCII field of `length` bytes with trailing/leading spaces and NULs
  // removed and non-printable bytes replaced by '?'; "" if it does not fit.
  std::string ascii(size_t offset, size_t length) const;
  // Lower-case hex of `length` bytes ("" if it does not fit).
  std::string hex(size_t offset, size_t length) const;
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  std::span<const uint8_t> bytes_;
};

// Trims spaces and NULs at both ends and replaces non-printable bytes by '?'.
std::string clean_ascii(std::string text);

}  // namespace ssdprobe
