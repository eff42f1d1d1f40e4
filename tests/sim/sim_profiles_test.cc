// Every shipped simulated drive, through the real probe and analysis: the
// read page is inferred exactly, or reported as not determined where the
// profile has nothing to find. Several seeds each, so a lucky draw cannot pass.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "device/sim_device.h"
#include "probe/grid_plan.h"
#include "probes/grid_probe.h"

using namespace ssdprobe;

namespace {

GridProbeResult probe_profile(const SimProfile& profile, uint64_t seed, uint32_t queue_depth = 1) {
  SimDevice device(profile, seed, false);
  GridPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.logical_block = device.limits().logical_block;
  const GridPlan plan = plan_read_grid(in);
  GridProbeOptions options;
  options.analysis = read_page_options(plan.candidates, seed);
  options.seed = seed;
  options.budget_s = 60;
  options.queue_depth = queue_depth;
  return run_grid_probe(device, plan, options);
}

}  // namespace

TEST_CASE("every profile's read page is inferred exactly or reported as not determined") {
  for (const auto& profile : sim_profiles()) {
    for (uint64_t seed : {1, 2, 3, 4}) {
      INFO(fmt::format("profile {} seed {}", profile.name, seed));
      const GridProbeResult result = probe_profile(profile, seed);
      INFO(result.verdict.evidence);
      const auto expected = profile.expected_read_page();
      if (expected) {
        REQUIRE(result.verdict.bytes.has_value());
        CHECK(*result.verdict.bytes == *expected);
        CHECK(result.verdict.confidence >= 0.9);
      } else {
        CHECK_FALSE(result.verdict.bytes.has_value());
        CHECK(result.verdict.confidence == 0.0);
      }
    }
  }
}

TEST_CASE("the smaller and larger levels of a profile are reported beside the page") {
  const GridProbeResult result = probe_profile(*find_sim_profile("multiplane-16k"), 1);
  std::vector<uint64_t> units;
  for (const auto& level : result.verdict.levels) units.push_back(level.unit_bytes);
  CHECK(units == std::vector<uint64_t>{4096, 16384, 65536});
}

TEST_CASE("queue depth 8 still finds the page") {
  const GridProbeResult result = probe_profile(*find_sim_profile("nvme-tlc-16k"), 1, 8);
  REQUIRE(result.verdict.bytes.has_value());
  CHECK(*result.verdict.bytes == 16384);
}

TEST_CASE("the same seed gives the same run, bit for bit") {
  const auto a = probe_profile(*find_sim_profile("noisy-16k"), 5);
  const auto b = probe_profile(*find_sim_profile("noisy-16k"), 5);
  CHECK(a.ios == b.ios);
  CHECK(a.grid.samples == b.grid.samples);
  CHECK(a.verdict.evidence == b.verdict.evidence);
}
