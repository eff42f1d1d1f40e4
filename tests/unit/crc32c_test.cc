// CRC-32C (Castagnoli), the journal's checksum: the published check value and
// the iSCSI test vectors (RFC 3720, B.4), and continuation over chunks.
#include <array>
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "core/crc32c.h"
#include "core/random.h"

using namespace ssdprobe;

namespace {

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

std::vector<std::byte> filled(size_t size, uint8_t value) { return std::vector<std::byte>(size, std::byte{value}); }

std::vector<std::byte> ascending(size_t size, bool descending = false) {
  std::vector<std::byte> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = std::byte(static_cast<uint8_t>(descending ? size - 1 - i : i));
  return bytes;
}

std::vector<std::byte> pseudo_random(size_t size, uint64_t seed) {
  Random random(seed);
  std::vector<std::byte> bytes(size);
  for (auto& b : bytes) b = std::byte(static_cast<uint8_t>(random.next()));
  return bytes;
}

}  // namespace

TEST_CASE("crc32c of \"123456789\" is the catalogued check value 0xE3069283", "[crc32c]") {
  CHECK(crc32c(bytes_of("123456789")) == 0xE3069283u);
}

TEST_CASE("crc32c matches the RFC 3720 (iSCSI) test vectors", "[crc32c]") {
  struct Vector {
    const char* name;
    std::vector<std::byte> data;
    uint32_t expected;
  };
  const std::array<Vector, 4> vectors{{
      {"32 bytes of zeros", filled(32, 0x00), 0x8A9136AAu},
      {"32 bytes of 0xFF", filled(32, 0xFF), 0x62A8AB43u},
      {"32 bytes ascending 0..31", ascending(32), 0x46DD794Eu},
      {"32 bytes descending 31..0", ascending(32, true), 0x113FDB5Cu},
  }};
  for (const auto& v : vectors) {
    INFO(v.name);
    CHECK(crc32c(v.data) == v.expected);
  }
}

TEST_CASE("crc32c of nothing is 0, and continuing with nothing changes nothing", "[crc32c]") {
  CHECK(crc32c({}) == 0u);
  CHECK(crc32c({}, 0xE3069283u) == 0xE3069283u);
}

TEST_CASE("crc32c continued over chunks equals the one-shot value, wherever the data is cut", "[crc32c]") {
  const std::vector<std::byte> data = pseudo_random(4096 + 37, 7);
  const std::span<const std::byte> all(data);
  const uint32_t whole = crc32c(all);
  for (size_t cut : {size_t{0}, size_t{1}, size_t{8}, size_t{9}, size_t{512}, size_t{4095}, data.size() - 1, data.size()}) {
    INFO("cut at " << cut);
    CHECK(crc32c(all.subspan(cut), crc32c(all.first(cut))) == whole);
  }
  for (size_t chunk : {1, 3, 64, 1000}) {
    INFO("chunks of " << chunk);
    uint32_t crc = 0;
    for (size_t at = 0; at < data.size(); at += chunk) crc = crc32c(all.subspan(at, std::min(chunk, data.size() - at)), crc);
    CHECK(crc == whole);
  }
  // The check value, fed one digit at a time.
  const std::vector<std::byte> digits = bytes_of("123456789");
  uint32_t crc = 0;
  for (std::byte b : digits) crc = crc32c(std::span(&b, 1), crc);
  CHECK(crc == 0xE3069283u);
}

TEST_CASE("crc32c detects a single flipped bit anywhere in a record", "[crc32c]") {
  std::vector<std::byte> data = pseudo_random(512, 3);
  const uint32_t original = crc32c(data);
  for (size_t bit = 0; bit < data.size() * 8; bit += 61) {
    INFO("bit " << bit);
    data[bit / 8] ^= std::byte(static_cast<uint8_t>(1u << (bit % 8)));
    CHECK(crc32c(data) != original);
    data[bit / 8] ^= std::byte(static_cast<uint8_t>(1u << (bit % 8)));
  }
  CHECK(crc32c(data) == original);
}
