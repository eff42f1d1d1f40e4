// Whose plateau: a sweep's busiest depth judged against the engine's own
// ceiling and the process's busy share, and decided by more rings
// (analysis/host_bound.h).
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

// What more rings showed: `gain` over one ring at depth 32 on 2 cores.
MoreRingsCheck rings_gaining(double gain) {
  MoreRingsCheck r;
  r.timed = true;
  r.rings = 2;
  r.queue_depth = 32;
  r.rounds = 3;
  r.one_ring_iops = 400e3;
  r.iops = 400e3 * (1.0 + gain);
  r.gain = gain;
  return r;
}

MoreRingsCheck rings_not_timed() {
  MoreRingsCheck r;
  r.not_timed_because = "this process may run on one CPU only";
  return r;
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
  check_host_bound(v, ceiling_of(6e6));
  judge_host_bound(v, rings_gaining(0.9));  // not suspect: what rings would show is not asked
  REQUIRE(v.host_check);
  CHECK(v.host_check->plateau_share == Approx(400e3 / 6e6));
  CHECK_FALSE(v.host_check->suspected);
  CHECK_FALSE(v.host_check->more_rings.timed);
  CHECK_FALSE(v.host_check->host_bound);
  CHECK(v.queue_depth_knee.state == UnitState::found);
  CHECK(v.plateau_iops.state == UnitState::found);
  CHECK(*v.plateau_iops.value == 400e3);
}

TEST_CASE("a plateau near the engine's ceiling is the host's: knee and plateau are withdrawn, and say why") {
  ParallelismVerdict v = found_sweep(1.8e6);
  check_host_bound(v, ceiling_of(2.2e6));
  judge_host_bound(v, rings_not_timed());
  REQUIRE(v.host_check);
  CHECK(v.host_check->host_bound);
  for (const ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
    CHECK(value->state == UnitState::undetermined);
    CHECK_FALSE(value->value);
    CHECK(value->confidence == 0.0);
    CHECK(value->evidence.find("host-bound") != std::string::npos);
    CHECK(value->evidence.find("82 %") != std::string::npos);  // 1.8 of 2.2 M
    CHECK(value->evidence.find("one CPU only") != std::string::npos);
  }
  // Nothing to advise from a host's limit.
  CHECK(parallelism_advice(v).empty());
}

TEST_CASE("the line sits at 70 % of the ceiling") {
  ParallelismVerdict below = found_sweep(0.69e6), at = found_sweep(0.70e6);
  check_host_bound(below, ceiling_of(1e6));
  check_host_bound(at, ceiling_of(1e6));
  CHECK_FALSE(below.host_check->suspected);
  CHECK(at.host_check->suspected);
}

// The busiest depth (32) of found_sweep, with the process `busy` there.
ParallelismVerdict sweep_busy(double busy) {
  ParallelismVerdict v = found_sweep(400e3);
  v.depths.back().host_busy = busy;
  check_host_bound(v, ceiling_of(6e6));
  return v;
}

TEST_CASE("a process that kept a CPU busy at the plateau makes it suspect, far below the engine's ceiling") {
  CHECK_FALSE(sweep_busy(0.89).host_check->suspected);
  ParallelismVerdict v = sweep_busy(0.97);
  CHECK(v.host_check->suspected);
  CHECK(*v.host_check->host_busy == Approx(0.97));
  CHECK(v.host_check->plateau_share < kHostBoundShare);
}

TEST_CASE("more rings that serve more make a suspect plateau the host's") {
  ParallelismVerdict v = sweep_busy(0.97);
  judge_host_bound(v, rings_gaining(0.85));
  CHECK(v.host_check->host_bound);
  CHECK(v.host_check->more_rings.rings == 2);
  for (const ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
    CHECK(value->state == UnitState::undetermined);
    CHECK_FALSE(value->value);
    CHECK(value->evidence.find("busy 97 %") != std::string::npos);
    CHECK(value->evidence.find("740000 IOPS against 400000 with one ring (+85 %") != std::string::npos);
  }
}

TEST_CASE("more rings that serve no more leave a suspect plateau the drive's, and say so") {
  ParallelismVerdict v = sweep_busy(0.97);
  judge_host_bound(v, rings_gaining(0.04));
  CHECK_FALSE(v.host_check->host_bound);
  CHECK(v.queue_depth_knee.state == UnitState::found);
  CHECK(v.plateau_iops.state == UnitState::found);
  CHECK(*v.plateau_iops.value == 400e3);
  CHECK(v.plateau_iops.evidence.find("(+4 %") != std::string::npos);
  CHECK(v.plateau_iops.evidence.find("not one core's limit") != std::string::npos);
}

TEST_CASE("more rings that gain nothing because one ring already kept every CPU busy leave it the host's") {
  ParallelismVerdict v = sweep_busy(1.9);  // the ring's kernel workers on both CPUs
  judge_host_bound(v, rings_gaining(-0.05));
  CHECK(v.host_check->host_bound);
  CHECK(v.plateau_iops.state == UnitState::undetermined);
  CHECK(v.plateau_iops.evidence.find("one ring already kept 1.9 CPUs busy") != std::string::npos);
  ParallelismVerdict below = sweep_busy(1.79);  // under 0.9 x 2 rings: a CPU was left
  judge_host_bound(below, rings_gaining(-0.05));
  CHECK_FALSE(below.host_check->host_bound);
}

TEST_CASE("the gain line sits at 10 %") {
  ParallelismVerdict below = sweep_busy(0.97), at = sweep_busy(0.97);
  judge_host_bound(below, rings_gaining(0.099));
  judge_host_bound(at, rings_gaining(0.10));
  CHECK_FALSE(below.host_check->host_bound);
  CHECK(at.host_check->host_bound);
}

TEST_CASE("a suspect plateau whose rings could not be timed is withdrawn, cautiously") {
  ParallelismVerdict v = sweep_busy(0.97);
  judge_host_bound(v, rings_not_timed());
  CHECK(v.host_check->host_bound);
  CHECK(v.plateau_iops.state == UnitState::undetermined);
  CHECK(v.plateau_iops.evidence.find("could not be tried (this process may run on one CPU only)") != std::string::npos);
}

namespace {

// A found sweep far below the ceiling, idle enough, whose submitter waited
// for a CPU `waited` of the time at its busiest depth.
ParallelismVerdict sweep_waiting(double waited) {
  ParallelismVerdict v = found_sweep(400e3);
  v.depths.back().host_busy = 0.4;
  v.depths.back().host_waited = waited;
  check_host_bound(v, ceiling_of(6e6));
  return v;
}

}  // namespace

TEST_CASE("a submitter that waited for a CPU a tenth of the time makes the plateau suspect") {
  CHECK_FALSE(sweep_waiting(0.09).host_check->suspected);
  const ParallelismVerdict v = sweep_waiting(0.12);
  CHECK(v.host_check->suspected);
  CHECK(*v.host_check->host_waited == Approx(0.12));
}

TEST_CASE("a submitter kept waiting for a CPU: more rings decide, and the evidence says it waited") {
  ParallelismVerdict gained = sweep_waiting(0.33);
  judge_host_bound(gained, rings_gaining(0.3));
  CHECK(gained.host_check->host_bound);
  for (const ParallelismValue* value : {&gained.queue_depth_knee, &gained.plateau_iops}) {
    CHECK(value->state == UnitState::undetermined);
    CHECK(value->evidence.find("the submitting thread waited for a CPU 33 % of the time at depth 32") !=
          std::string::npos);
  }
  ParallelismVerdict untried = sweep_waiting(0.33);  // waits alone, no rings to settle it: the value stands
  judge_host_bound(untried, rings_not_timed());
  CHECK_FALSE(untried.host_check->host_bound);
  CHECK(untried.plateau_iops.state == UnitState::found);
  CHECK(untried.plateau_iops.evidence.find("waited for a CPU 33 %") != std::string::npos);
  CHECK(untried.plateau_iops.evidence.find("more rings could not be tried (this process may run on one CPU only)") !=
        std::string::npos);
  ParallelismVerdict flat = sweep_waiting(0.33);
  judge_host_bound(flat, rings_gaining(0.03));
  CHECK_FALSE(flat.host_check->host_bound);
  CHECK(flat.plateau_iops.state == UnitState::found);
  CHECK(flat.plateau_iops.evidence.find("waited for a CPU 33 %") != std::string::npos);
  CHECK(flat.plateau_iops.evidence.find("not one core's limit") != std::string::npos);
}
