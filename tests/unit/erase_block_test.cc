// Erase-block inference from write streams built by hand: periodic stalls
// (also at non-power-of-two periods and under random outliers) are found
// with their period; noise alone, or a divisor pattern, is not.
#include <catch2/catch.hpp>

#include "analysis/erase_block.h"
#include "core/random.h"

using namespace ssdprobe;

namespace {

WriteStream make_stream(size_t writes, size_t period, size_t phase, double stall_us, double outlier_rate,
                        uint64_t seed = 3) {
  Random random(seed);
  WriteStream s;
  s.chunk_bytes = 65536;
  for (size_t k = 0; k < writes; ++k) {
    double us = 100.0 * (1.0 + 0.05 * random.normal());
    if (period && k % period == phase) us += stall_us;
    if (random.uniform() < outlier_rate) us += 2500.0;
    s.latency_us.push_back(us);
  }
  return s;
}

}  // namespace

TEST_CASE("a 12 MiB period (192 writes of 64 KiB) is found at any phase") {
  const auto v = infer_erase_block(make_stream(4096, 192, 57, 1500, 0.0));
  REQUIRE(v.bytes.has_value());
  CHECK(*v.bytes == 12ull << 20);
  CHECK(v.stall_phase_bytes == 57 * 65536);
  CHECK(v.confidence > 0.99);
  CHECK(v.stall_us == Approx(1500).epsilon(0.05));
}

TEST_CASE("2% random multi-ms outliers do not hide or fake the period") {
  const auto v = infer_erase_block(make_stream(4096, 128, 0, 1500, 0.02));
  REQUIRE(v.bytes.has_value());
  CHECK(*v.bytes == 8ull << 20);
  const auto none = infer_erase_block(make_stream(4096, 0, 0, 0, 0.02));
  CHECK_FALSE(none.bytes.has_value());
  CHECK(none.evidence.find("follow no period") != std::string::npos);
}

TEST_CASE("a stall on only every other period is reported at the longer period") {
  WriteStream s = make_stream(4096, 0, 0, 0, 0.0);
  for (size_t k = 0; k < s.latency_us.size(); k += 256) s.latency_us[k] += 1200;
  const auto v = infer_erase_block(s);
  REQUIRE(v.bytes.has_value());
  CHECK(*v.bytes == 16ull << 20);
}

TEST_CASE("a period longer than a sixth of the stream is not claimed; the evidence says up to where") {
  const auto v = infer_erase_block(make_stream(4096, 1024, 0, 1500, 0.0));
  CHECK_FALSE(v.bytes.has_value());
  CHECK(v.searched_up_to_bytes == (4096 / 6) * 65536);
  CHECK(v.evidence.find("up to") != std::string::npos);
}

TEST_CASE("a flat stream has nothing to find") {
  const auto v = infer_erase_block(make_stream(2048, 0, 0, 0, 0.0));
  CHECK_FALSE(v.bytes.has_value());
  CHECK(v.confidence == 0.0);
}

TEST_CASE("binomial tail") {
  CHECK(binomial_tail(10, 0, 0.3) == Approx(1.0));
  CHECK(binomial_tail(10, 11, 0.3) == 0.0);
  CHECK(binomial_tail(1, 1, 0.25) == Approx(0.25));
  CHECK(binomial_tail(10, 10, 0.5) == Approx(1.0 / 1024));
}

TEST_CASE("small erase blocks that stall on a third or half of all writes are still found") {
  for (size_t period : {2, 3, 4}) {
    const auto v = infer_erase_block(make_stream(3000, period, 1, 600, 0.0));
    INFO("period " << period);
    REQUIRE(v.bytes.has_value());
    CHECK(*v.bytes == period * 65536);
  }
}

TEST_CASE("a block that is not a whole number of writes (6 MiB in 72 KiB writes) is found, not their lcm") {
  // A stall on the write that covers the start of each 6 MiB block: writes
  // floor(m * 85.33), so the exact repeat is 256 writes with 3 stalls.
  WriteStream s = make_stream(6000, 0, 0, 0, 0.0);
  s.chunk_bytes = 72 * 1024;
  const uint64_t block = 6ull << 20;
  for (uint64_t start = 0; start / s.chunk_bytes < s.latency_us.size(); start += block) {
    s.latency_us[start / s.chunk_bytes] += 2000;
  }
  const auto v = infer_erase_block(s);
  REQUIRE(v.bytes.has_value());
  CHECK(*v.bytes == block);
  CHECK(v.evidence.find("3 stalls evenly spread over every 256 writes") != std::string::npos);
}

TEST_CASE("two unrelated stall phases are not averaged into a fake fractional block") {
  WriteStream s = make_stream(4096, 0, 0, 0, 0.0);
  for (size_t k = 0; k < s.latency_us.size(); ++k) {
    if (k % 128 == 0 || k % 128 == 10) s.latency_us[k] += 1500;
  }
  const auto v = infer_erase_block(s);
  REQUIRE(v.bytes.has_value());
  CHECK(*v.bytes == 128 * 65536);
}

TEST_CASE("a regular small bump (a read-modify-write every third write) is not an erase block") {
  WriteStream s = make_stream(4096, 3, 0, 40.0, 0.0);  // +40% on every third 100 us write
  const auto v = infer_erase_block(s);
  CHECK_FALSE(v.bytes.has_value());
}

// A full drive collecting garbage: every write waits 1-3 ms, so the 2 ms
// erase stall lifts only some of the block's first writes above the slow
// threshold. A multiple of the block then finds a phase where 5 of its 6
// writes happen to be slow; that is luck among the block's phases, not a
// larger erase block (issue 38: measured at 40 MiB on the emulated drive).
TEST_CASE("stalls that a garbage-collection storm hides in part name no multiple of the block") {
  int named = 0, recurring = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Random random(seed);
    WriteStream s;
    s.chunk_bytes = 65536;
    for (size_t k = 0; k < 4096; ++k) {
      double us = 200.0 * (1.0 + 0.05 * random.normal()) + 1000.0 + 2000.0 * random.uniform();
      if (k % 128 == 0) us += 2000.0;
      s.latency_us.push_back(us);
    }
    const auto v = infer_erase_block(s);
    INFO("seed " << seed << ": " << v.evidence);
    if (!v.bytes) {
      // Named as the period the stalls recur at, or too few stood out, and
      // then the spread of the waits rules nothing out.
      const bool recurs = v.evidence.find("stalls recur every 8 MiB") != std::string::npos;
      CHECK((recurs || (v.spread_hides_stalls && v.evidence.find("follow no period") != std::string::npos)));
      recurring += recurs ? 1 : 0;
      continue;
    }
    CHECK(*v.bytes == 8ull << 20);
    ++named;
  }
  // Most seeds' evidence says where the stalls recur (27 of 40 when written).
  CHECK(named + recurring >= 20);
}

namespace {

// writes of `base_us` with `noise` (relative sigma), each waiting a uniform
// 0..`wait_us` more, and `stall_us` at every 128th (an 8 MiB block).
WriteStream waiting_stream(double base_us, double noise, double wait_us, double stall_us, uint64_t seed) {
  Random random(seed);
  WriteStream s;
  s.chunk_bytes = 65536;
  for (size_t k = 0; k < 4096; ++k) {
    double us = base_us * (1.0 + noise * random.normal()) + wait_us * random.uniform();
    if (k % 128 == 0) us += stall_us;
    s.latency_us.push_back(us);
  }
  return s;
}

}  // namespace

TEST_CASE("writes that each wait a different while for garbage collection rule no erase block out") {
  // A full drive: every 64 KiB write waits 1-3 ms; an erase's 1.2 ms stall
  // at each 8 MiB block start hides in that spread. Main said "no periodic
  // write stall found up to 42.7 MiB", ruling out the block it could not see.
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const auto v = infer_erase_block(waiting_stream(1200.0, 0.05, 2000.0, 1200.0, seed));
    INFO("seed " << seed << ": " << v.evidence);
    CHECK_FALSE(v.bytes.has_value());
    CHECK(v.spread_hides_stalls);
    CHECK(v.stall_floor_us > 1000.0);
    CHECK(v.evidence.rfind("not determined: the stream's writes took", 0) == 0);
  }
}

TEST_CASE("a stream that could see an erase's stall rules the block out, and says of what size") {
  // Fast and noisy (20 % on 100 us writes): stalls from +0.1 ms show.
  const auto noisy = infer_erase_block(waiting_stream(100.0, 0.20, 0.0, 0.0, 5));
  CHECK_FALSE(noisy.bytes.has_value());
  CHECK_FALSE(noisy.spread_hides_stalls);
  CHECK(noisy.stall_floor_us < 200.0);
  CHECK(noisy.evidence.rfind("no periodic write stall of +", 0) == 0);
  // Slow and quiet (5 ms writes, 2 %): the half-write floor sets 2.5 ms, a
  // deliberate floor (smaller bumps are not erases), not a spread that hides.
  const auto slow = infer_erase_block(waiting_stream(5000.0, 0.02, 0.0, 0.0, 5));
  CHECK_FALSE(slow.bytes.has_value());
  CHECK_FALSE(slow.spread_hides_stalls);
  CHECK(slow.stall_floor_us == Approx(2500.0).epsilon(0.05));
  // The same slow drive's 20 ms stalls every 8 MiB are found.
  const auto found = infer_erase_block(waiting_stream(5000.0, 0.02, 0.0, 20000.0, 5));
  REQUIRE(found.bytes.has_value());
  CHECK(*found.bytes == 8ull << 20);
}
