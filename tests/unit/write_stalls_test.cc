// The write grid's stall classifier (analysis/write_stalls.h) on hand-made
// latency grids: an ordinary tail (noise, the structure of straddling
// writes, a few multi-ms outliers) is never a heavy share of stalls; a full
// drive's garbage-collection waits are, counted write by write.
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/write_stalls.h"
#include "core/random.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kKiB = 1024;

// Two request sizes over eight offsets; writes at odd offsets straddle a
// unit and cost `straddle` times the aligned ones (the structure a write
// grid exists to see, not stalls). Each sample: the cell's cost times
// log-normal noise of `sigma`, plus with probability `stall_share` a wait of
// `stall_us` x 0.5..1.5. Returns the grid and how many waits were added.
// Waits of 3 ms and more pass every size's line here; a wait under 4x its
// size's median is not told from the write's own cost, by design.
struct Made {
  LatencyGrid grid;
  uint64_t stalls = 0;
};

Made make_grid(uint64_t per_cell, double sigma, double straddle, double stall_share, double stall_us,
               uint64_t seed = 7) {
  Made m{LatencyGrid({4 * kKiB, 64 * kKiB}, {0, 512, 4 * kKiB, 6 * kKiB, 16 * kKiB, 20 * kKiB, 32 * kKiB, 36 * kKiB}),
         0};
  Random random(seed);
  const double base_us[] = {100.0, 260.0};
  for (size_t row = 0; row < m.grid.sizes.size(); ++row) {
    for (size_t column = 0; column < m.grid.offsets.size(); ++column) {
      const double cost = base_us[row] * (column % 2 ? straddle : 1.0);
      for (uint64_t i = 0; i < per_cell; ++i) {
        double us = cost * std::exp(sigma * random.normal());
        if (random.uniform() < stall_share) {
          us += stall_us * (0.5 + random.uniform());
          ++m.stalls;
        }
        m.grid.cell(row, column).push_back(us);
      }
    }
  }
  return m;
}

}  // namespace

TEST_CASE("an ordinary tail is not called stalls: heavy noise and straddling writes at 2.8x") {
  const Made m = make_grid(150, 0.30, 2.8, 0.0, 0.0);
  const WriteStalls s = classify_write_stalls(m.grid);
  CHECK(s.writes == 2400);
  // 30 % noise on writes at 2.8x the aligned ones puts a few of the slowest
  // past 4x their size's median (3 sigma): counted, never a heavy share.
  CHECK(s.stalled <= 12);
  CHECK_FALSE(s.heavy());
  const Made clean = make_grid(150, 0.10, 2.0, 0.0, 0.0);
  CHECK(classify_write_stalls(clean.grid).stalled == 0);
}

TEST_CASE("2 % of multi-ms outliers are counted, but are no heavy share") {
  const Made m = make_grid(150, 0.05, 2.0, 0.02, 6000.0);
  const WriteStalls s = classify_write_stalls(m.grid);
  CHECK(s.stalled == m.stalls);
  CHECK(s.stalled > 0);
  CHECK_FALSE(s.heavy());
}

TEST_CASE("a quarter of writes waiting for garbage collection is a heavy share, each wait counted") {
  const Made m = make_grid(150, 0.05, 2.0, 0.25, 6000.0);
  const WriteStalls s = classify_write_stalls(m.grid);
  CHECK(s.stalled == m.stalls);
  CHECK(s.heavy());
  CHECK(s.median_us < 500.0);            // the typical write is still a write's time
  CHECK(s.stalled_median_us > 2000.0);   // the stalls are the waits
  CHECK(s.threshold_us >= 4 * 100.0);    // at least 4x the small writes' median
}

TEST_CASE("a small grid's few slow writes are not a diagnosis, however large their share") {
  const Made m = make_grid(6, 0.05, 2.0, 0.12, 6000.0, 3);
  const WriteStalls s = classify_write_stalls(m.grid);
  REQUIRE(m.stalls > 0);
  REQUIRE(m.stalls < kHeavyStallCount);
  CHECK(s.stalled == m.stalls);
  CHECK_FALSE(s.heavy());
}

TEST_CASE("an empty grid has no stalls") {
  const WriteStalls s = classify_write_stalls(LatencyGrid({4 * kKiB}, {0}));
  CHECK(s.writes == 0);
  CHECK(s.stalled == 0);
  CHECK_FALSE(s.heavy());
}
