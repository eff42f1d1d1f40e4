// Program unit versus stripe on hand-built write grids: a drive that programs
// consecutive pages on several units at once gives the page as the write unit
// and the stripe beside it; a drive whose large unit really costs a partial
// penalty keeps that unit, with no stripe; noise never turns a stripe into the
// write unit.
#include <catch2/catch.hpp>
#include <functional>

#include "analysis/unit_inference.h"
#include "core/block_math.h"
#include "core/random.h"
#include "probes/grid_plan.h"

using namespace ssdprobe;

namespace {

using LatencyFn = std::function<double(uint64_t offset, uint64_t size)>;

// The write grid a --write run plans, every cell `samples` times.
LatencyGrid write_grid(const LatencyFn& latency, int samples, double noise_sigma, uint64_t seed = 11) {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.logical_block = 512;
  const GridPlan plan = plan_write_grid(in);
  LatencyGrid grid(plan.sizes, plan.offsets);
  Random random(seed);
  for (size_t i = 0; i < grid.sizes.size(); ++i) {
    for (size_t j = 0; j < grid.offsets.size(); ++j) {
      for (int k = 0; k < samples; ++k) {
        grid.cell(i, j).push_back(latency(grid.offsets[j], grid.sizes[i]) * (1.0 + noise_sigma * random.normal()));
      }
    }
  }
  return grid;
}

UnitInferenceOptions write_options() {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.logical_block = 512;
  return write_unit_options(plan_write_grid(in).candidates, 1);
}

double count(uint64_t offset, uint64_t size, uint64_t unit) { return static_cast<double>(units_touched(offset, size, unit)); }

double partial(uint64_t offset, uint64_t size, uint64_t unit) {
  return feature_value({unit, UnitCost::per_partial_block, 0}, offset, size);
}

// Pages of `page` bytes on `units` dies in turn, programmed at once: the
// busiest die's programs, a partial page a whole one; 4 KiB mapping units
// pay a read-modify-write.
LatencyFn striped(uint64_t page, uint64_t units, double program_us) {
  return [=](uint64_t o, uint64_t s) {
    const double rounds = std::ceil(count(o, s, page) / static_cast<double>(units));
    return 12 + 0.25 * static_cast<double>(s) / 1024 + program_us * rounds + 25 * partial(o, s, 4096);
  };
}

// One program unit after another, with a read-modify-write for a partial one.
LatencyFn programmed(uint64_t unit, double program_us, double rmw_us) {
  return [=](uint64_t o, uint64_t s) {
    return 12 + 0.25 * static_cast<double>(s) / 1024 + program_us * count(o, s, unit) + rmw_us * partial(o, s, unit) +
           25 * partial(o, s, 4096);
  };
}

}  // namespace

TEST_CASE("a round of pages over parallel units counts rounds, not pages or stripe boundaries") {
  const Feature rounds{16384, UnitCost::per_stripe_round, 4};
  CHECK(feature_value(rounds, 0, 65536) == 1.0);      // four whole pages: one round
  CHECK(feature_value(rounds, 16384, 65536) == 1.0);  // across a stripe boundary, still four pages
  CHECK(feature_value(rounds, 4096, 65536) == 2.0);   // five pages touched: a second round
  CHECK(feature_value(rounds, 0, 4096) == 1.0);       // a partial page is a whole program
  CHECK(feature_value(rounds, 0, 131072) == 2.0);
}

TEST_CASE("16 KiB pages over 4 units: write unit 16 KiB, stripe 64 KiB") {
  const auto verdict = infer_unit(write_grid(striped(16384, 4, 150), 5, 0.02), write_options());
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 16384);
  CHECK(verdict.stripe.state == UnitState::found);
  REQUIRE(verdict.stripe.bytes.has_value());
  CHECK(*verdict.stripe.bytes == 65536);
  CHECK(verdict.stripe.units == 4);
  CHECK(verdict.stripe.confidence >= 0.9);
  CHECK(verdict.stripe.evidence.find("64 KiB stripe") == 0);
  CHECK(verdict.evidence.find("over 4 parallel units") != std::string::npos);
}

TEST_CASE("8 KiB pages over 8 units: write unit 8 KiB, stripe 64 KiB") {
  const auto verdict = infer_unit(write_grid(striped(8192, 8, 120), 5, 0.02), write_options());
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 8192);
  REQUIRE(verdict.stripe.bytes.has_value());
  CHECK(*verdict.stripe.bytes == 65536);
  CHECK(verdict.stripe.units == 8);
}

TEST_CASE("a 64 KiB program unit with a partial penalty is the write unit, with no stripe") {
  const auto verdict = infer_unit(write_grid(programmed(65536, 60, 40), 5, 0.02), write_options());
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 65536);
  CHECK(verdict.stripe.state != UnitState::found);
  CHECK_FALSE(verdict.stripe.bytes.has_value());
}

TEST_CASE("a 48 KiB one-shot program unit keeps its answer and gets no stripe") {
  const auto verdict = infer_unit(write_grid(programmed(49152, 60, 40), 5, 0.02), write_options());
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 49152);
  CHECK_FALSE(verdict.stripe.bytes.has_value());
}

TEST_CASE("a clean grid without stripe rounds rules a stripe out, with its reach") {
  const auto verdict = infer_unit(write_grid(programmed(16384, 60, 40), 9, 0.001), write_options());
  INFO(verdict.stripe.evidence);
  REQUIRE(verdict.bytes.has_value());
  CHECK(*verdict.bytes == 16384);
  CHECK(verdict.stripe.state == UnitState::absent);
  REQUIRE(verdict.stripe.searched_up_to_bytes.has_value());
  CHECK(*verdict.stripe.searched_up_to_bytes == 262144);  // 16 KiB x 16
  CHECK(verdict.stripe.evidence.rfind("no stripe", 0) == 0);
}

TEST_CASE("no write unit at all: no stripe either") {
  const auto verdict = infer_unit(write_grid([](uint64_t, uint64_t s) { return 20 + 0.3 * s / 1024; }, 9, 0.002),
                                  write_options());
  CHECK(verdict.state == UnitState::absent);
  CHECK(verdict.stripe.state == UnitState::absent);
}

TEST_CASE("read-page inference has no stripe to tell") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.logical_block = 512;
  const auto options = read_page_options(plan_read_grid(in).candidates, 1);
  const LatencyGrid grid = write_grid(striped(16384, 4, 150), 3, 0.02);
  CHECK(infer_unit(grid, options).stripe.state == UnitState::not_measured);
}

TEST_CASE("under heavy noise the stripe is never the write unit") {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    INFO("seed " << seed);
    const auto verdict = infer_unit(write_grid(striped(16384, 4, 60), 3, 0.15, seed), write_options());
    INFO(verdict.evidence);
    if (verdict.bytes) CHECK(*verdict.bytes == 16384);
    if (verdict.stripe.bytes) CHECK(*verdict.stripe.bytes == 65536);
    if (!verdict.bytes) CHECK(verdict.stripe.state == UnitState::undetermined);
  }
}
