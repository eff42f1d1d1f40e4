// The read grid's first look (probes/grid_probe.h, FirstLook): one row of
// two-logical-block reads sampled alone names the page before the whole grid
// is timed, and the grid that follows still answers everything the run
// needs. What a user checks: the look named the page the run reports, after
// far fewer reads than the grid; every cell of the heat map still has its
// samples; a drive without a page is not held up by a look that sees
// nothing; and at a deeper queue there is no look at all.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "device/sim_device.h"
#include "device/sim_profile.h"
#include "read_probe.h"

using namespace ssdprobe;

namespace {

GridProbeResult probe(const std::string& profile, uint64_t seed, uint32_t queue_depth = 1) {
  SimDevice device(*find_sim_profile(profile), seed, false);
  return test::read_probe(device, seed, 60.0, queue_depth);
}

}  // namespace

TEST_CASE("a clear page is named by the first look, two rounds of one row, and the grid confirms it") {
  for (const char* name : {"nvme-tlc-16k", "nvme-4kn-32k", "sata-mlc-8k", "multiplane-16k"}) {
    const SimProfile& profile = *find_sim_profile(name);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const GridProbeResult r = probe(name, seed);
      INFO(fmt::format("{} seed {}: look {} IOs in {} rounds, unit {}; grid {} IOs, verdict {}", name, seed,
                       r.first_look.ios, r.first_look.rounds, r.first_look.unit.value_or(0), r.ios,
                       r.verdict.bytes.value_or(0)));
      CHECK(r.first_look.request_bytes == 2 * profile.logical_block);
      REQUIRE(r.first_look.unit);
      CHECK(*r.first_look.unit == profile.read_page);
      CHECK(r.verdict.bytes == r.first_look.unit);
      CHECK(r.first_look.support >= 0.97);
      CHECK(r.first_look.rounds == 2);
      // Two rounds of three reads over two cells of each class of the row
      // (probes/grid_probe.cc, look_cells): fewer reads than three of each
      // of the row's cells (32 or 256 of them), as a look-less round takes.
      CHECK(r.first_look.ios < 3 * r.grid.offsets.size());
      CHECK(r.first_look.ios % 6 == 0);
      // Every cell of the heat map still has a first round's samples, and
      // the look's row has the look's on top.
      for (size_t row = 0; row < r.grid.sizes.size(); ++row) {
        for (size_t j = 0; j < r.grid.offsets.size(); ++j) CHECK(r.grid.cell(row, j).size() >= 3u);
      }
      CHECK(test::row_samples(r.grid, r.first_look.request_bytes) >= 3 * r.grid.offsets.size() + r.first_look.ios);
      CHECK(r.stop_reason == GridStopReason::settled);
    }
  }
}

TEST_CASE("a drive without a page: the look sees no level and hands over after one round") {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const GridProbeResult r = probe("flat-dram", seed);
    INFO(fmt::format("seed {}: look {} IOs, grid {} IOs", seed, r.first_look.ios, r.ios));
    CHECK(r.first_look.rounds == 1);
    CHECK(r.first_look.ios < 3 * r.grid.offsets.size() / 2);
    CHECK_FALSE(r.first_look.unit);
    CHECK(r.verdict.state == UnitState::absent);
    // A look that confirmed nothing confirms nothing: ruling the page out
    // took two full rounds that agreed, as it did before first looks.
    CHECK(r.rounds >= r.first_look.rounds + 2);
  }
}

TEST_CASE("at a deeper queue every round keeps one mix of cells: no first look") {
  const GridProbeResult r = probe("nvme-tlc-16k", 1, 8);
  CHECK(r.first_look.request_bytes == 0);
  CHECK(r.first_look.ios == 0);
  CHECK(r.verdict.bytes == uint64_t{16384});
}

TEST_CASE("the write grid has no first look") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  CHECK(plan_write_grid(in).first_look_size == 0);
  CHECK(plan_read_grid(in).first_look_size == 1024);
}
