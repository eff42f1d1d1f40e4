// Program unit versus stripe on simulated drives, over many seeds: a drive
// that programs consecutive pages on several units at once gives the page as
// the write unit and the stripe beside it, never the stripe as the write
// unit; drives that program one unit after another never get a stripe; and
// striped variants nobody tuned (other page sizes, unit counts, program
// times, noise) are answered right or "not determined", never wrongly.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "device/sim_device.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"
#include "safety/write_session.h"
#include "sim_write_grid.h"

using namespace ssdprobe;

namespace {

GridProbeResult write_grid(const SimProfile& profile, uint64_t seed) {
  SimDevice device(profile, seed, true);
  return sim_write_grid(device, default_write_window(device.limits().size_bytes), seed);
}

struct Tally {
  int unit_right = 0, unit_wrong = 0, stripe_right = 0, stripe_wrong = 0;
};

// Counts one run against the profile's truth; a wrong answer is also a failed CHECK.
void count(const SimProfile& profile, const UnitVerdict& v, Tally& tally) {
  INFO(v.evidence << " | " << v.stripe.evidence);
  if (v.bytes) {
    const bool right = v.bytes == profile.expected_write_unit();
    ++(right ? tally.unit_right : tally.unit_wrong);
    CHECK(right);
  }
  if (v.stripe.bytes) {
    const bool right = v.stripe.bytes == profile.expected_write_stripe();
    ++(right ? tally.stripe_right : tally.stripe_wrong);
    CHECK(right);
  }
  if (v.stripe.state == UnitState::absent) CHECK_FALSE(profile.expected_write_stripe().has_value());
}

const char* state_name(UnitState state) {
  switch (state) {
    case UnitState::found: return "found";
    case UnitState::absent: return "ruled out";
    case UnitState::undetermined: return "not determined";
    case UnitState::not_measured: return "not measured";
  }
  return "?";
}

SimProfile striped_variant(const char* name, uint32_t page, uint32_t units, double program_us, double noise) {
  SimProfile p = *find_sim_profile("nvme-striped-16k");
  p.name = name;
  p.program_unit = page;
  p.stripe_units = units;
  p.parallel_units = units;
  p.interleave_bytes = page;
  p.program_us = program_us;
  p.noise_sigma = noise;
  return p;
}

// 2 % of IOs late by multiple milliseconds, as on noisy-16k.
SimProfile outliers(SimProfile p) {
  p.outlier_probability = 0.02;
  p.outlier_us = 2500.0;
  return p;
}

// A partial page also reads the page's old data first, on its own die.
SimProfile with_rmw(SimProfile p) {
  p.rmw_us = 60.0;
  return p;
}

}  // namespace

TEST_CASE("the striped drive: write unit 16 KiB and stripe 64 KiB over 12 seeds, never the stripe as write unit") {
  const SimProfile& profile = *find_sim_profile("nvme-striped-16k");
  REQUIRE(profile.expected_write_unit() == 16384u);
  REQUIRE(profile.expected_write_stripe() == 65536u);
  Tally tally;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    INFO("seed " << seed);
    const GridProbeResult r = write_grid(profile, seed);
    count(profile, r.verdict, tally);
    CHECK(r.verdict.stripe.units == 4);
    fmt::print("nvme-striped-16k seed {:>2}: write unit {} (support {:.3f}), stripe {} ({}, support {:.3f})\n", seed,
               r.verdict.bytes.value_or(0), r.verdict.leading_support, r.verdict.stripe.bytes.value_or(0),
               state_name(r.verdict.stripe.state), r.verdict.stripe.confidence);
  }
  CHECK(tally.unit_wrong == 0);
  CHECK(tally.stripe_wrong == 0);
  CHECK(tally.unit_right >= 11);
  CHECK(tally.stripe_right >= 11);
}

TEST_CASE("drives that program one unit after another never get a stripe") {
  Tally tally;
  for (const auto& profile : sim_profiles()) {
    if (profile.stripe_units > 1 || profile.slc_cache.bytes > 0) continue;  // cached drives: write_probes_test
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      INFO(fmt::format("{} seed {}", profile.name, seed));
      count(profile, write_grid(profile, seed).verdict, tally);
    }
  }
  fmt::print("unstriped drives: {} write units right, {} wrong; stripes claimed {}\n", tally.unit_right,
             tally.unit_wrong, tally.stripe_right + tally.stripe_wrong);
  CHECK(tally.stripe_right + tally.stripe_wrong == 0);
}

TEST_CASE("striped drives nobody tuned to: right or not determined, never wrong") {
  const std::vector<SimProfile> variants{
      striped_variant("8k-x8", 8192, 8, 120.0, 0.03),  striped_variant("32k-x2", 32768, 2, 200.0, 0.03),
      striped_variant("16k-x4-noisy", 16384, 4, 150.0, 0.12), striped_variant("16k-x8-fast", 16384, 8, 40.0, 0.05),
      striped_variant("4k-x4", 4096, 4, 90.0, 0.05),  outliers(striped_variant("16k-x4-outliers", 16384, 4, 150.0, 0.2)),
      with_rmw(striped_variant("16k-x4-rmw", 16384, 4, 150.0, 0.03)),
      striped_variant("16k-x16", 16384, 16, 150.0, 0.03),  // only the grid's 256 KiB writes show its rounds
  };
  Tally tally;
  for (const auto& profile : variants) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      INFO(fmt::format("{} seed {}", profile.name, seed));
      const UnitVerdict v = write_grid(profile, seed).verdict;
      count(profile, v, tally);
      fmt::print("{:<16} seed {}: write unit {}, stripe {} ({})\n", profile.name, seed, v.bytes.value_or(0),
                 v.stripe.bytes.value_or(0), state_name(v.stripe.state));
    }
  }
  CHECK(tally.unit_wrong == 0);
  CHECK(tally.stripe_wrong == 0);
  CHECK(tally.stripe_right >= 16);  // of 32: most variants show their stripe plainly
}
