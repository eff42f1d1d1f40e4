#include "core/units.h"

#include <array>
#include <cctype>
#include <fmt/format.h>
#include <limits>
#include <utility>

#include "core/error.h"

namespace ssdprobe {
namespace {

uint64_t suffix_multiplier(std::string_view suffix, bool* ok) {
  static const std::array<std::pair<std::string_view, uint64_t>, 17> table{{
      {"", 1}, {"b", 1},
      {"k", 1ull << 10}, {"kb", 1ull << 10}, {"kib", 1ull << 10},
      {"m", 1ull << 20}, {"mb", 1ull << 20}, {"mib", 1ull << 20},
      {"g", 1ull << 30}, {"gb", 1ull << 30}, {"gib", 1ull << 30},
      {"t", 1ull << 40}, {"tb", 1ull << 40}, {"tib", 1ull << 40},
      {"s", 512}, {"sec", 512}, {"sectors", 512},
  }};
  std::string lower;
  for (char c : suffix) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const auto& [name, mult] : table) {
    if (lower == name) {
      *ok = true;
      return mult;
    }
  }
  *ok = false;
  return 0;
}

}  // namespace

uint64_t parse_size(std::string_view text, std::string_view what) {
  auto fail = [&](const char* why) {
    return Error(ErrorCategory::usage,
                 fmt::format("invalid {} '{}': {} (examples: 4096, 4k, 16KiB, 1M, 2GiB)", what, text, why));
  };
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) throw fail("empty");
  size_t digits = 0;
  uint64_t value = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) {
    uint64_t d = static_cast<uint64_t>(s[digits] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - d) / 10) throw fail("too large");
    value = value * 10 + d;
    ++digits;
  }
  if (digits == 0) throw fail("must start with a non-negative whole number");
  std::string_view suffix = s.substr(digits);
  while (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
  bool ok = false;
  uint64_t mult = suffix_multiplier(suffix, &ok);
  if (!ok) throw fail("unknown unit suffix");
  if (value != 0 && mult > std::numeric_limits<uint64_t>::max() / value) throw fail("too large");
  return value * mult;
}

Region parse_region(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    throw Error(ErrorCategory::usage,
                fmt::format("invalid --region '{}': expected OFFSET:LENGTH, e.g. 1G:4G or 1G: for the rest", text));
  }
  Region region;
  region.offset = parse_size(text.substr(0, colon), "--region offset");
  std::string_view length = text.substr(colon + 1);
  if (!length.empty()) {
    region.length = parse_size(length, "--region length");
    if (region.length == 0) throw Error(ErrorCategory::usage, fmt::format("invalid --region '{}': length is zero", text));
    // The end (OFFSET + LENGTH) must be a byte address, not wrap around.
    if (region.length > std::numeric_limits<uint64_t>::max() - region.offset) {
      throw Error(ErrorCategory::usage,
                  fmt::format("invalid --region '{}': OFFSET + LENGTH ({} + {}) is beyond the largest byte offset, "
                              "2^64 - 1",
                              text, region.offset, region.length));
    }
  }
  return region;
}

std::string format_size(uint64_t bytes) {
  static const std::array<const char*, 5> names{"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  uint64_t scale = 1;
  while (unit + 1 < names.size() && bytes >= scale * 1024) {
    scale *= 1024;
    ++unit;
  }
  if (bytes % scale == 0) return fmt::format("{} {}", bytes / scale, names[unit]);
  return fmt::format("{:.1f} {}", static_cast<double>(bytes) / static_cast<double>(scale), names[unit]);
}

namespace {

// The largest of KiB..TiB that divides `bytes` (0 = none): its index and scale.
std::pair<size_t, uint64_t> exact_unit(uint64_t bytes) {
  size_t unit = 0;
  uint64_t scale = 1;
  while (unit < 4 && bytes != 0 && bytes % (scale * 1024) == 0) {
    scale *= 1024;
    ++unit;
  }
  return {unit, scale};
}

}  // namespace

std::string format_exact_size(uint64_t bytes) {
  static const std::array<const char*, 5> names{"B", "KiB", "MiB", "GiB", "TiB"};
  const auto [unit, scale] = exact_unit(bytes);
  return fmt::format("{} {}", bytes / scale, names[unit]);
}

std::string size_argument(uint64_t bytes) {
  static const std::array<const char*, 5> suffixes{"", "K", "M", "G", "T"};
  const auto [unit, scale] = exact_unit(bytes);
  return fmt::format("{}{}", bytes / scale, suffixes[unit]);
}

namespace {

constexpr uint64_t kDecimals = 10000;  // four decimals

// bytes / scale exactly in at most four decimals (the caller checked it can be).
std::string in_unit(uint64_t bytes, uint64_t scale) {
  const uint64_t rest = bytes % scale;
  if (rest == 0) return fmt::format("{}", bytes / scale);
  std::string decimals = fmt::format("{:04}", rest * kDecimals / scale);
  while (decimals.back() == '0') decimals.pop_back();
  return fmt::format("{}.{}", bytes / scale, decimals);
}

bool exact_in_four_decimals(uint64_t bytes, uint64_t scale) { return bytes % scale * kDecimals % scale == 0; }

}  // namespace

std::string format_byte_range(uint64_t offset, uint64_t length) {
  static const std::array<const char*, 5> names{"B", "KiB", "MiB", "GiB", "TiB"};
  const uint64_t end = offset + length;
  // A power of 1024 divides both ends exactly when it divides their bitwise or.
  auto [unit, scale] = exact_unit(offset | end);
  while (unit + 1 < names.size() && end / scale >= 1000000 && exact_in_four_decimals(offset, scale * 1024) &&
         exact_in_four_decimals(end, scale * 1024)) {
    scale *= 1024;
    ++unit;
  }
  return fmt::format("{} to {} {} ({})", in_unit(offset, scale), in_unit(end, scale), names[unit], format_size(length));
}

}  // namespace ssdprobe
