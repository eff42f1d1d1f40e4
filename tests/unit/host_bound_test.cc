// Whose plateau: a sweep's busiest depth judged against the engine's own
// ceiling (analysis/host_bound.h).
#include <catch2/catch.hpp>

#include "analysis/host_bound.h"

using namespace ssdprobe;

namespace {

// A found knee at 16 and plateau of `plateau` IOPS at 32.
ParallelismVerdict found_sweep(double plateau) {
  ParallelismVerdict v;
  const double shares[] = {0.1, 0.3, 0.6, 0.8, 0.95, 1.0};
  uint32_t depth = 1;
  for (double share : shares) {
    DepthSummary d;
    d.queue_depth = depth;
    d.iops = share * plateau;
    v.depths.push_back(d);
    depth *= 2;
  }
  v.queue_depth_knee = {16.0, UnitState::found, 0.99, "mean IOPS per depth ...", 16.0, 16.0};
  v.plateau_iops = {plateau, UnitState::found, 0.99, "plateau evidence", plateau * 0.97, plateau * 1.03};
  return v;
}

EngineCeiling ceiling_of(double iops, uint32_t depth = 32) {
  EngineCeiling c;
  c.queue_depth = depth;
  c.ios = 50'000;
  c.iops = iops;
  c.cpu_ns_per_io = 1e9 / iops;
  return c;
}

}  // namespace

TEST_CASE("the busiest depth is the one with the highest mean IOPS") {
  const ParallelismVerdict v = found_sweep(1.5e6);
  REQUIRE(busiest_depth(v));
  CHECK(busiest_depth(v)->queue_depth == 32);
  CHECK_FALSE(busiest_depth(ParallelismVerdict{}));
}

TEST_CASE("a plateau far below the engine's ceiling stays the drive's, with the ceiling recorded") {
  ParallelismVerdict v = found_sweep(400e3);
  judge_host_bound(v, ceiling_of(6e6));
  REQUIRE(v.host_check);
  CHECK(v.host_check->plateau_share == Approx(400e3 / 6e6));
  CHECK_FALSE(v.host_check->host_bound);
  CHECK(v.queue_depth_knee.state == UnitState::found);
  CHECK(v.plateau_iops.state == UnitState::found);
  CHECK(*v.plateau_iops.value == 400e3);
}

TEST_CASE("a plateau near the engine's ceiling is the host's: knee and plateau are withdrawn, and say why") {
  ParallelismVerdict v = found_sweep(1.8e6);
  judge_host_bound(v, ceiling_of(2.2e6));
  REQUIRE(v.host_check);
  CHECK(v.host_check->host_bound);
  for (const ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
    CHECK(value->state == UnitState::undetermined);
    CHECK_FALSE(value->value);
    CHECK(value->confidence == 0.0);
    CHECK(value->evidence.find("host-bound") != std::string::npos);
    CHECK(value->evidence.find("82 %") != std::string::npos);  // 1.8 of 2.2 M
  }
  // Nothing to advise from a host's limit.
  CHECK(parallelism_advice(v).empty());
}

TEST_CASE("the line sits at 70 % of the ceiling") {
  ParallelismVerdict below = found_sweep(0.69e6), at = found_sweep(0.70e6);
  judge_host_bound(below, ceiling_of(1e6));
  judge_host_bound(at, ceiling_of(1e6));
  CHECK_FALSE(below.host_check->host_bound);
  CHECK(at.host_check->host_bound);
}
