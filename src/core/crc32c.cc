#include "core/crc32c.h"

#include <array>

namespace ssdprobe {
namespace {

constexpr uint32_t kPolynomial = 0x82f63b78;  // reflected Castagnoli polynomial

constexpr std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPolynomial : c >> 1;
    table[i] = c;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = make_table();

}  // namespace

uint32_t crc32c(std::span<const std::byte> data, uint32_t crc) {
  crc = ~crc;
  for (std::byte b : data) crc = kTable[(crc ^ static_cast<uint8_t>(b)) & 0xff] ^ (crc >> 8);
  return ~crc;
}

}  // namespace ssdprobe
