// Overflow-checked products for deriving byte sizes from firmware fields: a
// drive may report any count, and a size that does not fit is unknown (null
// in the result document), never a wrapped-around number.
#pragma once

#include <cstdint>
#include <optional>

#include "firmware/byte_reader.h"

namespace ssdprobe {

// a × b, or nullopt when the product does not fit in 64 bits.
inline std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// 128-bit a × b, or nullopt when the product does not fit in 128 bits.
inline std::optional<uint128> checked_mul128(uint128 a, uint128 b) {
  uint128 product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

}  // namespace ssdprobe
