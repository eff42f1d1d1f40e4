// CRC-32C (Castagnoli), the checksum of journal records: detects torn and
// corrupted writes far better than a simple sum, and needs no library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace ssdprobe {

// Continues a CRC: crc32c(b, crc32c(a)) == crc32c(a+b). Start with 0.
uint32_t crc32c(std::span<const std::byte> data, uint32_t crc = 0);

}  // namespace ssdprobe
