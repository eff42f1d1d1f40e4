// Sizes and regions as users type them, and as the report prints them.
#include <catch2/catch.hpp>
#include <cstdint>

#include "core/error.h"
#include "core/units.h"

using namespace ssdprobe;

TEST_CASE("parse_size accepts the documented spellings") {
  CHECK(parse_size("4096") == 4096);
  CHECK(parse_size("4k") == 4096);
  CHECK(parse_size("4K") == 4096);
  CHECK(parse_size("16KiB") == 16384);
  CHECK(parse_size("16kb") == 16384);
  CHECK(parse_size("1M") == 1048576);
  CHECK(parse_size("2GiB") == 2147483648ull);
  CHECK(parse_size("1t") == (1ull << 40));
  CHECK(parse_size("8s") == 4096);
  CHECK(parse_size(" 512 ") == 512);
  CHECK(parse_size("0") == 0);
}

TEST_CASE("parse_size rejects malformed input with a usage error naming it") {
  for (const char* bad : {"", "abc", "-4k", "1.5M", "4x", "k", "16 KiBs", "99999999999999999999",
                          "20000000000000000T"}) {
    INFO(bad);
    try {
      parse_size(bad, "block size");
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.category() == ErrorCategory::usage);
      CHECK(std::string(e.what()).find("block size") != std::string::npos);
    }
  }
}

TEST_CASE("parse_region splits OFFSET:LENGTH") {
  const Region r = parse_region("1G:4G");
  CHECK(r.offset == (1ull << 30));
  CHECK(r.length == (4ull << 30));
  const Region open_ended = parse_region("1M:");
  CHECK(open_ended.offset == (1ull << 20));
  CHECK(open_ended.length == 0);
  CHECK_THROWS_AS(parse_region("1G"), Error);
  CHECK_THROWS_AS(parse_region("x:1M"), Error);
  CHECK_THROWS_AS(parse_region("1M:0"), Error);
  CHECK_THROWS_AS(parse_region("1M:y"), Error);
}

TEST_CASE("parse_region refuses a region whose end (OFFSET + LENGTH) is beyond 2^64 - 1, naming --region") {
  // Each of these once wrapped around: the confirmation showed an end before the start.
  for (const char* bad : {"1M:18446744073709551104", "1:18446744073709551615", "18446744073709551615:1",
                          "8T:18446735277616529408"}) {
    INFO(bad);
    try {
      parse_region(bad);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.category() == ErrorCategory::usage);
      CHECK(std::string(e.what()).find("--region") != std::string::npos);
    }
  }
  // Up to the last byte is a valid end.
  const Region last = parse_region("1M:18446744073708503039");
  CHECK(last.offset + last.length == UINT64_MAX);
  CHECK(parse_region("18446744073709551614:1").length == 1);
  CHECK(parse_region("18446744073709551615:").offset == UINT64_MAX);  // "to the end": no end to overflow
}

TEST_CASE("format_size prints exact binary units, or one decimal") {
  CHECK(format_size(0) == "0 B");
  CHECK(format_size(512) == "512 B");
  CHECK(format_size(16384) == "16 KiB");
  CHECK(format_size(1536) == "1.5 KiB");
  CHECK(format_size(12ull << 20) == "12 MiB");
  CHECK(format_size(3ull << 40) == "3 TiB");
}

TEST_CASE("exact sizes, region arguments and byte ranges stay exact") {
  CHECK(format_exact_size(34225520640ull) == "32640 MiB");
  CHECK(format_exact_size(1ull << 30) == "1 GiB");
  CHECK(format_exact_size(32256) == "32256 B");
  CHECK(format_exact_size(0) == "0 B");
  CHECK(size_argument(34225520640ull) == "32640M");
  CHECK(parse_size(size_argument(34225520640ull)) == 34225520640ull);
  CHECK(size_argument(32256) == "32256");
  CHECK(format_byte_range(34225520640ull, 268435456) == "32640 to 32896 MiB (256 MiB)");
  // One unit for both ends: the erase stream's window cut short by --budget
  // read "32640 MiB to 33685440 KiB".
  CHECK(format_byte_range(34225520640ull, 268369920) == "32640 to 32895.9375 MiB (255.9 MiB)");
  CHECK(format_byte_range(0, 1ull << 30) == "0 to 1 GiB (1 GiB)");
  CHECK(format_byte_range(1ull << 20, (2ull << 30) - (1ull << 20)) == "1 to 2048 MiB (2.0 GiB)");
  CHECK(format_byte_range(32256, 4096) == "32256 to 36352 B (4 KiB)");
}
