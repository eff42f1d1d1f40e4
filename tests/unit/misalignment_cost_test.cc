// The cost of a misaligned start on hand-built grids with a known step: the
// ratio and crossing shares the model gives when computed by hand, an
// interval that holds 1 when nothing costs and widens with noise, the write
// grid's stand-in columns, and honest "not determined" answers.
#include <catch2/catch.hpp>
#include <functional>

#include "analysis/misalignment_cost.h"
#include "core/block_math.h"
#include "core/random.h"
#include "probes/grid_plan.h"

using namespace ssdprobe;

namespace {

using LatencyFn = std::function<double(uint64_t offset, uint64_t size)>;

constexpr uint64_t KiB = 1024;
constexpr uint64_t kSector63 = 63 * 512;  // the DOS / Windows XP partition start

LatencyGrid fill(LatencyGrid grid, const LatencyFn& latency, int samples, double noise_sigma, uint64_t seed) {
  Random random(seed);
  for (size_t i = 0; i < grid.sizes.size(); ++i) {
    for (size_t j = 0; j < grid.offsets.size(); ++j) {
      for (int k = 0; k < samples; ++k) {
        const double base = latency(grid.offsets[j], grid.sizes[i]);
        grid.cell(i, j).push_back(base * std::exp(noise_sigma * random.normal()));
      }
    }
  }
  return grid;
}

GridPlanInput plan_input() {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.logical_block = 512;
  return in;
}

LatencyGrid read_grid(const LatencyFn& latency, int samples, double noise_sigma, uint64_t seed = 7) {
  const GridPlan plan = plan_read_grid(plan_input());
  return fill(LatencyGrid(plan.sizes, plan.offsets), latency, samples, noise_sigma, seed);
}

LatencyGrid write_grid(const LatencyFn& latency, int samples, double noise_sigma, uint64_t seed = 7) {
  const GridPlan plan = plan_write_grid(plan_input());
  return fill(LatencyGrid(plan.sizes, plan.offsets), latency, samples, noise_sigma, seed);
}

double touched(uint64_t offset, uint64_t size, uint64_t unit) {
  return static_cast<double>(units_touched(offset, size, unit));
}

// A 16 KiB read page: one page read takes 50 us, each extra page +20 us
// (a crossing costs +40 %).
double page_16k(uint64_t offset, uint64_t size) { return 30.0 + 20.0 * touched(offset, size, 16 * KiB); }

MisalignmentCostQuery read_query(uint64_t start, uint64_t size) {
  MisalignmentCostQuery q;
  q.start_bytes = start;
  q.request_bytes = size;
  q.request_alignment = 4 * KiB;
  q.unit = 16 * KiB;
  return q;
}

}  // namespace

TEST_CASE("4 KiB reads from sector 63 on a 16 KiB page: a quarter cross, +10 % by hand") {
  // Phases mod 16 KiB are 3.5, 7.5, 11.5 and 15.5 KiB: only the last crosses
  // (15.5 + 4 > 16), so the mean is (3 x 50 + 70) / 4 = 55 us against 50 aligned.
  const auto grid = read_grid(page_16k, 5, 0.01);
  const auto cost = misalignment_cost(grid, read_query(kSector63, 4 * KiB));
  INFO(cost.evidence);
  REQUIRE(cost.determined);
  CHECK(cost.ratio == Approx(55.0 / 50.0).epsilon(0.01));
  CHECK(cost.at_start_median_us == Approx(55.0).epsilon(0.01));
  CHECK(cost.aligned_median_us == Approx(50.0).epsilon(0.01));
  CHECK(cost.ratio_low <= cost.ratio);
  CHECK(cost.ratio_high >= cost.ratio);
  CHECK(cost.significant);
  REQUIRE(cost.crossing_share.has_value());
  CHECK(*cost.crossing_share == 0.25);
  CHECK(*cost.aligned_crossing_share == 0.0);
  CHECK(cost.evidence.find("25% of them cross a 16 KiB boundary") != std::string::npos);
}

TEST_CASE("16 KiB reads: every one crosses from sector 63, three in four from an aligned 4 KiB layer") {
  // Aligned phases 0, 4, 8, 12 KiB: one read touches one page, three touch
  // two: (50 + 3 x 70) / 4 = 65 us. From sector 63 all touch two: 70 us.
  const auto grid = read_grid(page_16k, 5, 0.01);
  const auto cost = misalignment_cost(grid, read_query(kSector63, 16 * KiB));
  REQUIRE(cost.determined);
  CHECK(cost.ratio == Approx(70.0 / 65.0).epsilon(0.01));
  CHECK(*cost.crossing_share == 1.0);
  CHECK(*cost.aligned_crossing_share == 0.75);
  CHECK(cost.significant);
}

TEST_CASE("a start 3 sectors in (1536 B) costs the same quarter of crossings") {
  // Phases 1.5, 5.5, 9.5, 13.5 KiB: 13.5 + 4 > 16 crosses.
  const auto grid = read_grid(page_16k, 5, 0.01);
  const auto cost = misalignment_cost(grid, read_query(3 * 512, 4 * KiB));
  REQUIRE(cost.determined);
  CHECK(cost.ratio == Approx(1.10).epsilon(0.01));
  CHECK(*cost.crossing_share == 0.25);
  CHECK(cost.significant);
}

TEST_CASE("an aligned start costs exactly 1 and is not significant") {
  const auto grid = read_grid(page_16k, 5, 0.10);
  for (uint64_t start : std::vector<uint64_t>{0, 128 * KiB, 7 * 128 * KiB, (uint64_t{1} << 40) + 128 * KiB, 4 * KiB, 1024 * KiB}) {
    INFO("start " << start);
    const auto cost = misalignment_cost(grid, read_query(start, 4 * KiB));
    REQUIRE(cost.determined);
    CHECK(cost.ratio == 1.0);
    CHECK(cost.ratio_low == 1.0);
    CHECK(cost.ratio_high == 1.0);
    CHECK_FALSE(cost.significant);
    CHECK(*cost.crossing_share == *cost.aligned_crossing_share);
    CHECK(cost.evidence.find("very phases an aligned layer's do") != std::string::npos);
  }
}

TEST_CASE("without a step a misaligned start is rarely called significant and its interval holds 1") {
  // No phase dependence at all: the interval should contain 1 about 95 % of
  // the time; 20 independent noisy grids may produce a false alarm or two, not more.
  int significant = 0, holding_one = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto grid = read_grid([](uint64_t, uint64_t s) { return 40.0 + 0.25 * static_cast<double>(s) / 1024; }, 3,
                                0.05, seed);
    const auto cost = misalignment_cost(grid, read_query(kSector63, 4 * KiB));
    REQUIRE(cost.determined);
    CHECK(cost.ratio == Approx(1.0).epsilon(0.03));
    significant += cost.significant;
    holding_one += cost.ratio_low <= 1.0 && cost.ratio_high >= 1.0;
  }
  CHECK(significant <= 2);
  CHECK(holding_one >= 17);
}

TEST_CASE("a noisy grid gives a wider interval around the same cost") {
  const auto clean = misalignment_cost(read_grid(page_16k, 5, 0.01), read_query(kSector63, 4 * KiB));
  const auto noisy = misalignment_cost(read_grid(page_16k, 5, 0.25), read_query(kSector63, 4 * KiB));
  REQUIRE(clean.determined);
  REQUIRE(noisy.determined);
  const double clean_width = clean.ratio_high - clean.ratio_low;
  const double noisy_width = noisy.ratio_high - noisy.ratio_low;
  INFO("clean " << clean.ratio_low << ".." << clean.ratio_high << ", noisy " << noisy.ratio_low << ".." << noisy.ratio_high);
  CHECK(noisy_width > 5 * clean_width);
  CHECK(noisy.ratio_low < clean.ratio_low);
  CHECK(noisy.ratio_high > clean.ratio_high);
}

TEST_CASE("rare multi-millisecond hiccups in three-sample cells do not swamp a clear cost") {
  // 2 % of IOs take 2.5 ms (a drive's background work). The medians barely
  // move; the interval must not turn a clear +10 % into "maybe 0.6x, maybe 2x".
  auto grid = read_grid(page_16k, 3, 0.05);
  Random random(11);
  int hiccups = 0;
  for (auto& cell : grid.samples) {
    for (double& value : cell) {
      if (random.uniform() < 0.02) value = 2500.0, ++hiccups;
    }
  }
  REQUIRE(hiccups > 100);
  const auto cost = misalignment_cost(grid, read_query(kSector63, 4 * KiB));
  INFO(cost.evidence);
  REQUIRE(cost.determined);
  CHECK(cost.ratio == Approx(1.10).epsilon(0.03));
  CHECK(cost.significant);
  CHECK(cost.ratio_high - cost.ratio_low < 0.15);
}

TEST_CASE("the interval is the same for the same seed and moves with another seed") {
  const auto grid = read_grid(page_16k, 5, 0.10);
  auto query = read_query(kSector63, 4 * KiB);
  const auto first = misalignment_cost(grid, query);
  const auto again = misalignment_cost(grid, query);
  query.seed = 2;
  const auto other = misalignment_cost(grid, query);
  CHECK(first.ratio_low == again.ratio_low);
  CHECK(first.ratio_high == again.ratio_high);
  CHECK(first.ratio == other.ratio);
  CHECK((first.ratio_low != other.ratio_low || first.ratio_high != other.ratio_high));
}

TEST_CASE("a request size the grid lacks is not determined and the sizes it has are named") {
  const auto grid = read_grid(page_16k, 3, 0.01);
  const auto cost = misalignment_cost(grid, read_query(kSector63, 12 * KiB));
  CHECK_FALSE(cost.determined);
  CHECK_FALSE(cost.significant);
  CHECK(cost.evidence.find("12 KiB is not a request size of this grid") != std::string::npos);
  CHECK(cost.evidence.find("512 B, 1 KiB, 2 KiB, 4 KiB, 8 KiB, 16 KiB, 32 KiB") != std::string::npos);
}

TEST_CASE("a start off the grid's offset step, or a sparse grid read as dense, is not determined") {
  const auto grid = read_grid(page_16k, 3, 0.01);
  const auto odd = misalignment_cost(grid, read_query(100, 4 * KiB));
  CHECK_FALSE(odd.determined);
  CHECK(odd.evidence.find("multiples of the grid's 512 B offset step") != std::string::npos);

  const auto writes = write_grid(page_16k, 3, 0.01);
  const auto dense = misalignment_cost(writes, read_query(kSector63, 4 * KiB));
  CHECK_FALSE(dense.determined);
  CHECK(dense.evidence.find("sparse_offsets") != std::string::npos);
}

TEST_CASE("a cell without samples makes the cost not determined") {
  auto grid = read_grid(page_16k, 3, 0.01);
  size_t row = 0;
  while (grid.sizes[row] != 4 * KiB) ++row;
  grid.cell(row, (15 * KiB + 512) / 512).clear();  // phase 15.5 KiB, needed from sector 63
  const auto cost = misalignment_cost(grid, read_query(kSector63, 4 * KiB));
  CHECK_FALSE(cost.determined);
  CHECK(cost.evidence.find("15.5 KiB holds no usable samples") != std::string::npos);
}

namespace {

// A write grid drive: 4 KiB mapping unit (a partly covered one costs a
// 25 us read-modify-write) and a 16 KiB program unit (60 us per unit
// touched, 40 us more per partly covered one).
// Units of `unit` that [o, o+s) touches without covering them whole.
double partial(uint64_t o, uint64_t s, uint64_t unit) {
  const bool first = o % unit != 0, last = (o + s) % unit != 0;
  if (units_touched(o, s, unit) == 1) return first || last ? 1.0 : 0.0;
  return static_cast<double>(first) + static_cast<double>(last);
}

double write_latency(uint64_t o, uint64_t s) {
  return 10.0 + 25.0 * partial(o, s, 4096) + 60.0 * touched(o, s, 16384) + 40.0 * partial(o, s, 16384);
}

MisalignmentCostQuery write_query(uint64_t start, uint64_t size, std::optional<uint64_t> unit) {
  MisalignmentCostQuery q;
  q.start_bytes = start;
  q.request_bytes = size;
  q.request_alignment = 4 * KiB;
  q.unit = unit;
  q.sparse_offsets = true;
  return q;
}

}  // namespace

TEST_CASE("write grid: 16 KiB writes from sector 63 against a 16 KiB write unit, by hand") {
  // Phases mod 16 KiB from sector 63: 3.5, 7.5, 11.5, 15.5 KiB, each touching
  // 2 units, partial at both ends; the grid has none of them, so the 512 B
  // column (same coverage, same 512 B alignment) stands in: 10 + 2 x 25
  // (two partial 4 KiB) + 2 x 60 + 2 x 40 = 260 us. Aligned phases 0, 4, 8, 12
  // KiB are all columns: 0 -> 10 + 60 = 70 us (a whole unit), the others
  // touch 2 units with partial ends and whole 4 KiB units: 10 + 120 + 80 = 210 us.
  // Mean aligned (70 + 3 x 210) / 4 = 175 us.
  REQUIRE(write_latency(0, 16384) == 70.0);
  REQUIRE(write_latency(4096, 16384) == 210.0);
  REQUIRE(write_latency(512, 16384) == 260.0);
  const auto grid = write_grid(write_latency, 5, 0.01);
  const auto cost = misalignment_cost(grid, write_query(kSector63, 16 * KiB, 16 * KiB));
  INFO(cost.evidence);
  REQUIRE(cost.determined);
  CHECK(cost.ratio == Approx(260.0 / 175.0).epsilon(0.01));
  CHECK(cost.significant);
  CHECK(*cost.crossing_share == 1.0);
  CHECK(*cost.aligned_crossing_share == 0.75);
  CHECK(cost.evidence.find("columns that touch as many 16 KiB units with the same partial ends stand in") !=
        std::string::npos);
  CHECK(cost.evidence.find("3.5 KiB by 512 B") != std::string::npos);
  CHECK(cost.evidence.find("15.5 KiB by 512 B") != std::string::npos);
}

TEST_CASE("write grid: 4 KiB writes from sector 63 against the 4 KiB mapping unit, by hand") {
  // Phase mod 4 KiB is always 3.5 KiB: 2 units, partial at both ends; the
  // 512 B column stands in: 10 + 2 x 25 + 60 + 40 = 160 us. Aligned: column 0,
  // 10 + 60 + 40 = 110 us.
  const auto grid = write_grid(write_latency, 5, 0.01);
  const auto cost = misalignment_cost(grid, write_query(kSector63, 4 * KiB, 4 * KiB));
  INFO(cost.evidence);
  REQUIRE(cost.determined);
  CHECK(cost.ratio == Approx(160.0 / 110.0).epsilon(0.01));
  CHECK(*cost.crossing_share == 1.0);
  CHECK(*cost.aligned_crossing_share == 0.0);
  CHECK(cost.significant);
}

TEST_CASE("write grid: a phase with no column of its coverage, or no unit, is not determined") {
  const auto grid = write_grid(write_latency, 3, 0.01);
  // A 4 KiB write at 15.5 KiB straddles a 16 KiB unit: no 4 KiB column of
  // the write grid lies between 12 and 16 KiB (mod 16 KiB).
  const auto straddle = misalignment_cost(grid, write_query(kSector63, 4 * KiB, 16 * KiB));
  CHECK_FALSE(straddle.determined);
  CHECK(straddle.evidence.find("phase 15.5 KiB (2 16 KiB units, partial at both ends)") != std::string::npos);
  const auto no_unit = misalignment_cost(grid, write_query(kSector63, 4 * KiB, std::nullopt));
  CHECK_FALSE(no_unit.determined);
  CHECK(no_unit.evidence.find("write unit is not known") != std::string::npos);
}

TEST_CASE("write grid: a start aligned to the block but not the unit uses exact columns and costs 1") {
  const auto grid = write_grid(write_latency, 5, 0.05);
  const auto cost = misalignment_cost(grid, write_query(4 * KiB, 4 * KiB, 16 * KiB));
  REQUIRE(cost.determined);
  CHECK(cost.ratio == 1.0);
  CHECK_FALSE(cost.significant);
  CHECK(cost.evidence.find("stand in") == std::string::npos);
}

TEST_CASE("the sizes worth stating are the layer's block and the unit when the grid has it") {
  const auto grid = read_grid(page_16k, 1, 0.0);
  CHECK(misalignment_request_sizes(grid, 4 * KiB, 16 * KiB) == std::vector<uint64_t>{4 * KiB, 16 * KiB});
  CHECK(misalignment_request_sizes(grid, 4 * KiB, 64 * KiB) == std::vector<uint64_t>{4 * KiB});
  CHECK(misalignment_request_sizes(grid, 4 * KiB, std::nullopt) == std::vector<uint64_t>{4 * KiB});
  CHECK(misalignment_request_sizes(grid, 16 * KiB, 16 * KiB) == std::vector<uint64_t>{16 * KiB});
  CHECK(misalignment_request_sizes(grid, 64 * KiB, 16 * KiB) == std::vector<uint64_t>{16 * KiB, 64 * KiB});
}

TEST_CASE("out-of-range queries and malformed grids are refused, not crashed on") {
  const auto grid = read_grid(page_16k, 1, 0.0);
  auto q = read_query(kSector63, 4 * KiB);
  q.request_alignment = 0;
  CHECK_FALSE(misalignment_cost(grid, q).determined);
  q = read_query(kSector63, 4 * KiB);
  q.unit = 0;
  CHECK_FALSE(misalignment_cost(grid, q).determined);
  q = read_query(UINT64_MAX - 511, 4 * KiB);
  CHECK(misalignment_cost(grid, q).determined);  // a start anywhere on a huge disk is fine
  q = write_query(kSector63, 4 * KiB, (1ull << 40) + 512);
  CHECK_FALSE(misalignment_cost(grid, q).determined);
  LatencyGrid broken({4096}, {0, 512});
  broken.samples.pop_back();
  CHECK_FALSE(misalignment_cost(broken, read_query(0, 4 * KiB)).determined);
  CHECK_FALSE(misalignment_cost(LatencyGrid{}, read_query(0, 4 * KiB)).determined);
}
