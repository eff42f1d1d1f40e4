// Small helpers for writing decoded firmware values into the result document:
// an absent value is JSON null, never a guess (spec/result-json.md), and a
// 128-bit counter is a JSON number while it fits in 64 bits and a decimal
// string beyond that (JSON numbers past 2^64 lose precision in most readers).
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "firmware/byte_reader.h"

namespace ssdprobe {

// Measured values (µs, seconds, ratios, confidences) are written to three
// decimals: more would be noise, and diffs of result documents stay readable.
inline double rounded(double value) { return std::round(value * 1000.0) / 1000.0; }

template <typename T>
nlohmann::ordered_json json_or_null(const std::optional<T>& value) {
  if (!value) return nullptr;
  return *value;
}

// A text the document leaves out when there is none: null, never "".
inline nlohmann::ordered_json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(text);
}

inline std::string u128_to_string(uint128 value) {
  if (value == 0) return "0";
  std::string digits;
  while (value != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  return digits;
}

inline nlohmann::ordered_json json_u128(uint128 value) {
  if (value <= UINT64_MAX) return static_cast<uint64_t>(value);
  return u128_to_string(value);
}

}  // namespace ssdprobe
