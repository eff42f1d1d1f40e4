// The cost of a misaligned start, from the grid the real read probe measures
// on simulated drives with a known page: a layer at sector 63 pays for page
// crossings (significantly), an aligned layer pays nothing, and a drive with
// nothing to cross shows no significant cost. Several seeds each.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "analysis/misalignment_cost.h"
#include "device/sim_device.h"
#include "read_probe.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kSector63 = 63 * 512;

GridProbeResult read_probe(const SimProfile& profile, uint64_t seed) {
  SimDevice device(profile, seed, false);
  return test::read_probe(device, seed);
}

MisalignmentCost cost_at(const GridProbeResult& probe, uint64_t start, std::optional<uint64_t> page, uint64_t seed) {
  MisalignmentCostQuery query;
  query.start_bytes = start;
  query.request_bytes = 4096;
  query.request_alignment = 4096;
  query.unit = page;
  query.seed = seed;
  return misalignment_cost(probe.grid, query);
}

}  // namespace

TEST_CASE("4 KiB reads from sector 63 cost significantly more on drives with a read page; aligned ones do not") {
  for (const char* name : {"nvme-tlc-16k", "sata-mlc-8k", "clean-4k", "multiplane-16k", "noisy-16k"}) {
    const SimProfile& profile = *find_sim_profile(name);
    const uint64_t page = *profile.expected_read_page();
    for (uint64_t seed : {1, 2, 3}) {
      const GridProbeResult probe = read_probe(profile, seed);
      const MisalignmentCost misaligned = cost_at(probe, kSector63, page, seed);
      const MisalignmentCost aligned = cost_at(probe, 1 << 20, page, seed);
      INFO(fmt::format("profile {} seed {}: {}", name, seed, misaligned.evidence));
      REQUIRE(misaligned.determined);
      CHECK(misaligned.ratio > 1.0);
      CHECK(misaligned.significant);
      // One 4 KiB read in page/4 KiB crosses the page from sector 63, none aligned.
      CHECK(*misaligned.crossing_share == Approx(4096.0 / static_cast<double>(page)));
      CHECK(*misaligned.aligned_crossing_share == 0.0);
      REQUIRE(aligned.determined);
      CHECK(aligned.ratio == 1.0);
      CHECK_FALSE(aligned.significant);
    }
  }
}

TEST_CASE("drives without a visible read page show no significant cost from sector 63") {
  // flat-dram has no geometry; fresh-16k answers unwritten reads from its
  // mapping table, so a read-only run sees no page either.
  for (const char* name : {"flat-dram", "fresh-16k"}) {
    for (uint64_t seed : {1, 2, 3}) {
      const GridProbeResult probe = read_probe(*find_sim_profile(name), seed);
      const MisalignmentCost misaligned = cost_at(probe, kSector63, std::nullopt, seed);
      INFO(fmt::format("profile {} seed {}: {}", name, seed, misaligned.evidence));
      REQUIRE(misaligned.determined);
      CHECK_FALSE(misaligned.significant);
      CHECK(misaligned.ratio_low <= 1.0);
      CHECK(misaligned.ratio_high >= 1.0);
      CHECK_FALSE(misaligned.crossing_share.has_value());
    }
  }
}
