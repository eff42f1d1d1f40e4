// The change point that tells an SLC cache running out: found where the
// speed drops and stays down, never in noise, a transient dip, a speed-up or
// periodic stalls.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "analysis/throughput_drop.h"
#include "core/random.h"

using namespace ssdprobe;

namespace {

// `n` latencies around `us` with log-normal noise of `sigma`.
void append(std::vector<double>& out, size_t n, double us, double sigma, Random& random) {
  for (size_t i = 0; i < n; ++i) out.push_back(us * std::exp(sigma * random.normal()));
}

}  // namespace

TEST_CASE("a drop that stays down is found at the sample it happened") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random random(seed);
    std::vector<double> us;
    append(us, 300, 1000.0, 0.10, random);
    append(us, 60, 4000.0, 0.10, random);
    const auto drop = find_sustained_drop(us);
    REQUIRE(drop);
    CHECK(drop->index >= 297);
    CHECK(drop->index <= 303);
    CHECK(drop->after_median_us / drop->before_median_us == Approx(4.0).epsilon(0.1));
    CHECK(drop->separation > 0.99);
  }
}

TEST_CASE("a modest drop (1.5x) in heavy noise with stalls is still found near its place") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random random(seed);
    std::vector<double> us;
    append(us, 500, 1000.0, 0.08, random);
    append(us, 120, 1500.0, 0.08, random);
    for (size_t i = 7; i < us.size(); i += 37) us[i] *= 8.0;  // garbage-collection stalls on both sides
    const auto drop = find_sustained_drop(us);
    REQUIRE(drop);
    CHECK(std::abs(static_cast<double>(drop->index) - 500.0) <= 10.0);
  }
}

TEST_CASE("no drop in steady noise, with or without stalls") {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Random random(seed);
    std::vector<double> us;
    append(us, 800, 1000.0, 0.2, random);
    if (seed % 2 == 0) {
      for (size_t i = 3; i < us.size(); i += 64) us[i] *= 20.0;  // erase-block stalls, periodic
    }
    CHECK_FALSE(find_sustained_drop(us));
  }
}

TEST_CASE("a transient dip that recovered is not a drop") {
  Random random(7);
  std::vector<double> us;
  append(us, 400, 1000.0, 0.05, random);
  append(us, 40, 5000.0, 0.05, random);
  append(us, 400, 1000.0, 0.05, random);
  CHECK_FALSE(find_sustained_drop(us));
}

TEST_CASE("a speed-up is not a drop") {
  Random random(3);
  std::vector<double> us;
  append(us, 100, 4000.0, 0.05, random);
  append(us, 300, 1000.0, 0.05, random);
  CHECK_FALSE(find_sustained_drop(us));
}

TEST_CASE("a drop needs enough slower writes after it to say it stayed") {
  Random random(5);
  std::vector<double> us;
  append(us, 1000, 1000.0, 0.05, random);
  append(us, 150, 4000.0, 0.05, random);  // more than 32, but fewer than 20 % of the 1000 before
  CHECK_FALSE(find_sustained_drop(us));
  append(us, 60, 4000.0, 0.05, random);
  const auto drop = find_sustained_drop(us);
  REQUIRE(drop);
  CHECK(drop->index == 1000);
}

TEST_CASE("periodic garbage collection (an eighth of the writes, 1.6x slower) is never a drop, at any look") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random random(seed);
    std::vector<double> us;
    for (int cycle = 0; cycle < 8; ++cycle) {
      append(us, 448, 1000.0, 0.05, random);
      append(us, 64, 1600.0, 0.05, random);
    }
    for (size_t n = 48; n <= us.size(); n += 16) {
      INFO("seed " << seed << " after " << n << " writes");
      CHECK_FALSE(find_sustained_drop(std::span<const double>(us).first(n)));
    }
  }
}

TEST_CASE("a drive that slows steadily (1x to 2x over the fill) is a ramp, not a drop") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random random(seed);
    std::vector<double> us;
    for (int i = 0; i < 4000; ++i) us.push_back(1000.0 * (1.0 + i / 4000.0) * std::exp(0.05 * random.normal()));
    CHECK_FALSE(find_sustained_drop(us));
  }
}

TEST_CASE("the pair fraction counts ties as halves") {
  const std::vector<double> a{1.0, 2.0}, b{2.0, 3.0};
  CHECK(later_slower_fraction(a, b) == Approx((1.0 + 0.5 + 1.0 + 1.0) / 4.0));
  CHECK(later_slower_fraction(b, a) == Approx((0.0 + 0.5 + 0.0 + 0.0) / 4.0));
}

namespace {

// Host delays: a busy CPU holds up writes in short bursts, only ever adding
// latency (here 2-10 ms to 8 % of the writes, two at a time).
void delay_some(std::vector<double>& us, Random& random) {
  for (size_t i = 0; i + 1 < us.size(); ++i) {
    if (random.uniform() >= 0.04) continue;
    const double delay = 2000.0 + 8000.0 * random.uniform();
    us[i] += delay;
    us[i + 1] += delay;
    ++i;
  }
}

}  // namespace

TEST_CASE("a drop is found on a busy host whose delays make some cache writes slower than native ones") {
  int found = 0, found_untrimmed = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random random(seed);
    std::vector<double> us;
    append(us, 300, 1000.0, 0.10, random);
    append(us, 100, 3000.0, 0.10, random);
    delay_some(us, random);
    const auto drop = find_sustained_drop(us);
    if (drop && std::abs(static_cast<double>(drop->index) - 300.0) <= 15.0) ++found;  // 5 %: delays near the step pull it
    DropRule untrimmed;
    untrimmed.earlier_trim = 0.0;
    if (find_sustained_drop(us, untrimmed)) ++found_untrimmed;
  }
  CHECK(found == 20);
  CHECK(found_untrimmed < 10);  // what the trim is for: the whole earlier side would hide most of them
}

TEST_CASE("the looser rule sees a step the strict one cannot confirm, and still nothing in steady noise") {
  Random random(11);
  std::vector<double> us;
  append(us, 300, 1000.0, 0.05, random);
  for (int i = 0; i < 100; ++i) us.push_back((i % 5 == 0 ? 1000.0 : 1500.0) * std::exp(0.05 * random.normal()));
  CHECK_FALSE(find_sustained_drop(us));  // a fifth of the later writes at the earlier speed
  const auto step = find_sustained_drop(us, suggestive_drop_rule());
  REQUIRE(step);
  CHECK(std::abs(static_cast<double>(step->index) - 300.0) <= 5.0);
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Random noise(seed);
    std::vector<double> steady;
    append(steady, 800, 1000.0, 0.2, noise);
    if (seed % 2 == 0) {
      for (size_t i = 3; i < steady.size(); i += 64) steady[i] *= 20.0;
    }
    delay_some(steady, noise);
    INFO("seed " << seed);
    CHECK_FALSE(find_sustained_drop(steady, suggestive_drop_rule()));
  }
}
