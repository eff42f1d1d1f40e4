// Read-page inference on hand-built grids: known steps in, the right level
// (or an honest "not determined") out.
#include <catch2/catch.hpp>
#include <functional>

#include "analysis/unit_inference.h"
#include "core/block_math.h"
#include "core/random.h"
#include "probes/grid_plan.h"

using namespace ssdprobe;

namespace {

using LatencyFn = std::function<double(uint64_t offset, uint64_t size)>;

LatencyGrid build_grid(uint32_t logical_block, const LatencyFn& latency, int samples, double noise_sigma,
                       uint64_t seed = 7) {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.logical_block = logical_block;
  const GridPlan plan = plan_read_grid(in);
  LatencyGrid grid(plan.sizes, plan.offsets);
  Random random(seed);
  for (size_t i = 0; i < grid.sizes.size(); ++i) {
    for (size_t j = 0; j < grid.offsets.size(); ++j) {
      for (int k = 0; k < samples; ++k) {
        const double base = latency(grid.offsets[j], grid.sizes[i]);
        grid.cell(i, j).push_back(base * (1.0 + noise_sigma * random.normal()));
      }
    }
  }
  return grid;
}

UnitInferenceOptions options_for(uint32_t logical_block) {
  return read_page_options(default_unit_candidates(logical_block, 128 * 1024), 1);
}

double pages(uint64_t offset, uint64_t size, uint64_t page) {
  return static_cast<double>(units_touched(offset, size, page));
}

}  // namespace

TEST_CASE("a clean 16 KiB step is found with high confidence") {
  const auto grid = build_grid(512, [](uint64_t o, uint64_t s) { return 10 + 0.25 * s / 1024 + 40 * pages(o, s, 16384); },
                               3, 0.02);
  const auto verdict = infer_unit(grid, options_for(512));
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 16384);
  CHECK(verdict.confidence > 0.95);
  CHECK(verdict.settled);
  REQUIRE(verdict.levels.size() == 1);
  CHECK(verdict.levels[0].step_us == Approx(40).epsilon(0.05));
  CHECK(verdict.evidence.find("16 KiB") != std::string::npos);
}

TEST_CASE("a small mapping-unit step is reported beside, not instead of, the page") {
  const auto grid = build_grid(
      512, [](uint64_t o, uint64_t s) { return 12 + 45 * pages(o, s, 8192) + 2 * (pages(o, s, 4096) - 1); }, 5, 0.01);
  const auto verdict = infer_unit(grid, options_for(512));
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 8192);
  REQUIRE(verdict.levels.size() == 2);
  CHECK(verdict.levels[0].unit_bytes == 4096);
  CHECK(verdict.levels[1].unit_bytes == 8192);
}

TEST_CASE("a non-power-of-two 48 KiB page is told apart from 16 KiB") {
  const auto grid = build_grid(4096, [](uint64_t o, uint64_t s) { return 20 + 50 * pages(o, s, 49152); }, 5, 0.02);
  const auto verdict = infer_unit(grid, options_for(4096));
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 49152);
}

TEST_CASE("no step: null, zero confidence, and the evidence bounds what could hide") {
  const auto grid = build_grid(512, [](uint64_t, uint64_t s) { return 15 + 0.3 * s / 1024; }, 5, 0.03);
  const auto verdict = infer_unit(grid, options_for(512));
  CHECK_FALSE(verdict.bytes.has_value());
  CHECK(verdict.confidence == 0.0);
  CHECK(verdict.levels.empty());
  CHECK(verdict.evidence.find("no read page") != std::string::npos);
  CHECK(verdict.largest_plausible_step_us > 0.0);
}

TEST_CASE("a step drowned in noise is not claimed") {
  // 1 us step under 60% noise with one sample per cell: nothing can be said.
  const auto grid = build_grid(512, [](uint64_t o, uint64_t s) { return 50 + 1 * pages(o, s, 16384); }, 1, 0.6);
  const auto verdict = infer_unit(grid, options_for(512));
  CHECK_FALSE(verdict.bytes.has_value());
  CHECK_FALSE(verdict.settled);
}

TEST_CASE("heavy outliers do not create or hide a level") {
  Random spikes(3);
  auto latency = [&spikes](uint64_t o, uint64_t s) {
    return 30 + 35 * pages(o, s, 32768) + (spikes.uniform() < 0.05 ? 3000.0 : 0.0);
  };
  const auto grid = build_grid(512, latency, 7, 0.05);
  const auto verdict = infer_unit(grid, options_for(512));
  INFO(verdict.evidence);
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 32768);
}

TEST_CASE("a step below the 1% effect floor is not a level even when significant") {
  const auto grid = build_grid(512, [](uint64_t o, uint64_t s) { return 100 + 0.4 * pages(o, s, 8192); }, 20, 0.001);
  const auto verdict = infer_unit(grid, options_for(512));
  CHECK_FALSE(verdict.bytes.has_value());
}

TEST_CASE("default candidates cover powers of two and 3x powers of two") {
  const auto units = default_unit_candidates(512, 131072);
  CHECK(units.front() == 1024);
  CHECK(std::find(units.begin(), units.end(), 12288) != units.end());
  CHECK(std::find(units.begin(), units.end(), 98304) != units.end());
  CHECK(units.back() == 131072);
  const auto fourkn = default_unit_candidates(4096, 131072);
  CHECK(fourkn.front() == 8192);
}
