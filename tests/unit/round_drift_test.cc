// Drift between sampling rounds: the shift of a round is the median change of
// its samples against the same cells' first-round medians, whatever cells the
// round favoured.
#include <catch2/catch.hpp>

#include "analysis/round_drift.h"

using namespace ssdprobe;

TEST_CASE("baseline medians are per cell, 0 where a cell has no sample") {
  LatencyGrid first({512, 1024}, {0, 512});
  first.cell(0, 0) = {10, 30, 20};
  first.cell(1, 1) = {50};
  CHECK(baseline_medians(first) == std::vector<double>{20, 0, 0, 50});
}

TEST_CASE("a round that ran 7 us slower is shifted by 7 us, even when it sampled only some cells") {
  const std::vector<double> baseline = {20, 40, 100, 60};
  // Mostly the expensive cell 2 (as a targeted round would), all 7 us slower.
  const std::vector<size_t> cells = {2, 2, 2, 2, 2, 0, 1, 3};
  const std::vector<double> latencies = {107, 106, 108, 107, 107, 27, 47, 67};
  CHECK(round_shift_us(baseline, cells, latencies) == Approx(7.0));
}

TEST_CASE("no drift, no shift; nothing comparable, no shift") {
  const std::vector<double> baseline = {20, 0};
  CHECK(round_shift_us(baseline, std::vector<size_t>{0, 0, 0}, std::vector<double>{19, 20, 21}) == Approx(0.0));
  // Cell 1 has no baseline and cell 5 is out of range: ignored.
  CHECK(round_shift_us(baseline, std::vector<size_t>{1, 5}, std::vector<double>{500, 900}) == 0.0);
}
