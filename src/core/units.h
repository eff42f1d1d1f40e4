// Byte sizes as people type them ("4k", "16KiB", "1M", "2GiB", "512") and as
// the report prints them. Binary multiples throughout: k = K = KiB = 1024.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ssdprobe {

// Parses a size; throws Error(usage) naming `what` and the bad text.
// Accepts an optional suffix b/B, k/K/KB/KiB, m/M/MB/MiB, g/G/GB/GiB,
// t/T/TB/TiB (all binary). Rejects negatives, fractions, overflow, junk.
uint64_t parse_size(std::string_view text, std::string_view what = "size");

// A region "OFFSET:LENGTH", both sizes; LENGTH may be omitted ("1G:") to
// mean "to the end of the target".
struct Region {
  uint64_t offset = 0;
  uint64_t length = 0;  // 0 = to the end
};
Region parse_region(std::string_view text);

// "16 KiB", "1.5 MiB", "512 B": exact when the value is a whole multiple,
// otherwise one decimal.
std::string format_size(uint64_t bytes);

// A position or size that must stay exact (a partition start, a window
// offset): the largest binary unit it is a whole multiple of ("32640 MiB",
// "31.5 KiB" is not exact, so 32256 gives "32256 B").
std::string format_exact_size(uint64_t bytes);

// The same, spelled as --region and parse_size take it: "32640M", "1G",
// "32256".
std::string size_argument(uint64_t bytes);

// A byte range for people, both ends exact and in one unit, then its length:
// "32640 to 32896 MiB (256 MiB)". The unit is the largest both ends are whole
// multiples of, or a larger one while the numbers would run to seven digits
// and both ends stay exact in at most four decimals: "32640 to 32895.9375
// MiB (255.9 MiB)", not "33423360 to 33685440 KiB".
std::string format_byte_range(uint64_t offset, uint64_t length);

}  // namespace ssdprobe
