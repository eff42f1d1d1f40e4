// How many write streams a drive keeps open, from hand-made latency sets:
// a clear collapse is found with the interval before it, no collapse is a
// bound only when the streams sat in measured erase blocks, and noise or a
// cost that does not step once is never an answer.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "analysis/open_units.h"
#include "core/random.h"

using namespace ssdprobe;

namespace {

// 16 writes per stream for N streams: `us` with log-normal noise, and
// `slow_share` of them `slow_us` instead (a fold).
StreamStep step(uint32_t streams, double us, Random& random, double sigma = 0.05, double slow_share = 0.0,
                double slow_us = 0.0) {
  StreamStep s{streams, {}};
  for (uint32_t i = 0; i < 16 * streams; ++i) {
    const double base = random.uniform() < slow_share ? slow_us : us;
    s.latency_us.push_back(base * std::exp(sigma * random.normal()));
  }
  return s;
}

// The ladder a probe runs on a drive keeping `open` streams: writes of
// 150 us, every write of more streams than that a 3 ms fold.
std::vector<StreamStep> ladder(uint32_t open, std::vector<uint32_t> ns, Random& random, double sigma = 0.05) {
  std::vector<StreamStep> steps;
  for (uint32_t n : ns) steps.push_back(step(n, n <= open ? 150.0 : 3150.0, random, sigma));
  return steps;
}

}  // namespace

TEST_CASE("a clear collapse gives the largest N before it and the interval up to the first collapsed N") {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Random random(seed);
    const auto v = infer_open_units(ladder(4, {1, 2, 3, 4, 6, 5}, random), true);
    INFO(v.evidence);
    REQUIRE(v.state == UnitState::found);
    CHECK(*v.streams == 4);
    CHECK(*v.at_most == 4);
    CHECK(v.confidence > 0.99);
    CHECK(v.steps.size() == 6);
    CHECK(v.steps.back().streams == 6);  // sorted by N
  }
}

TEST_CASE("a collapse between two ladder steps not bisected leaves the interval open") {
  Random random(3);
  const auto v = infer_open_units(ladder(7, {1, 2, 3, 4, 6, 8}, random), true);
  REQUIRE(v.state == UnitState::found);
  CHECK(*v.streams == 6);
  CHECK(*v.at_most == 7);
  CHECK(v.evidence.find("6 to 7") != std::string::npos);
}

TEST_CASE("a drive that keeps one stream open collapses at two") {
  Random random(4);
  const auto v = infer_open_units(ladder(1, {1, 2}, random), true);
  REQUIRE(v.state == UnitState::found);
  CHECK(*v.streams == 1);
  CHECK(*v.at_most == 1);
}

TEST_CASE("no collapse is a bound in measured erase blocks, and no answer with a stand-in spacing") {
  Random random(5);
  const auto measured = infer_open_units(ladder(1000, {1, 2, 3, 4, 6, 8, 12, 16}, random), true);
  CHECK(measured.state == UnitState::absent);
  CHECK(*measured.searched_up_to == 16);
  CHECK_FALSE(measured.streams);
  const auto stand_in = infer_open_units(ladder(1000, {1, 2, 3, 4, 6, 8, 12, 16}, random), false);
  CHECK(stand_in.state == UnitState::undetermined);
  CHECK(stand_in.evidence.find("stand-in") != std::string::npos);
}

TEST_CASE("noise alone, heavy and with outliers, is never a collapse") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random random(seed);
    std::vector<StreamStep> steps;
    for (uint32_t n : {1u, 2u, 3u, 4u, 6u, 8u, 12u, 16u}) steps.push_back(step(n, 200.0, random, 0.25, 0.03, 5000.0));
    const auto v = infer_open_units(steps, true);
    INFO(v.evidence);
    CHECK(v.state != UnitState::found);
  }
}

TEST_CASE("a step that is slower but not collapsed makes the answer not determined") {
  Random random(6);
  std::vector<StreamStep> steps = ladder(1000, {1, 2, 3}, random);
  steps.push_back(step(4, 150.0 * 1.6, random));  // 1.6x: neither as one nor collapsed
  steps.push_back(step(6, 3150.0, random));
  const auto v = infer_open_units(steps, true);
  CHECK(v.state == UnitState::undetermined);
  CHECK(v.evidence.find("neither") != std::string::npos);
}

TEST_CASE("a cost that collapses and then recovers is not an answer") {
  Random random(7);
  std::vector<StreamStep> steps = ladder(2, {1, 2, 3}, random);
  steps.push_back(step(4, 150.0, random));
  const auto v = infer_open_units(steps, true);
  CHECK(v.state == UnitState::undetermined);
  CHECK(v.evidence.find("does not step once") != std::string::npos);
}

TEST_CASE("a few slow writes among many fast ones do not make a collapse") {
  Random random(8);
  std::vector<StreamStep> steps = ladder(1000, {1, 2}, random);
  steps.push_back(step(3, 150.0, random, 0.05, 0.3, 3150.0));  // 30 % folds: the median stays
  const auto v = infer_open_units(steps, true);
  CHECK(v.state == UnitState::absent);
}

TEST_CASE("without one stream's writes there is nothing to compare with") {
  Random random(9);
  const auto v = infer_open_units(ladder(2, {2, 3}, random), true);
  CHECK(v.state == UnitState::undetermined);
  CHECK_FALSE(v.streams);
}

TEST_CASE("f2fs active logs fit the streams kept open") {
  CHECK_FALSE(f2fs_active_logs_for(1));
  CHECK(*f2fs_active_logs_for(2) == 2);
  CHECK(*f2fs_active_logs_for(3) == 2);
  CHECK(*f2fs_active_logs_for(5) == 4);
  CHECK(*f2fs_active_logs_for(7) == 6);
}

TEST_CASE("the advice names the files to write at once and the f2fs mount, its words quoted") {
  OpenUnitsVerdict v;
  v.state = UnitState::found;
  v.streams = 4;
  v.at_most = 5;
  const auto advice = open_units_advice(v, "/dev/my disk1");
  REQUIRE(advice.size() == 2);
  CHECK(advice[0].find("at most 4 files") != std::string::npos);
  CHECK(advice[1].find("mount -t f2fs -o active_logs=4 '/dev/my disk1' MOUNTPOINT") != std::string::npos);
  v.state = UnitState::absent;
  CHECK(open_units_advice(v, "PARTITION").empty());
}
