// The IO pattern the read probe issues, recorded: only reads, only aligned to
// the logical block, inside the region, a fresh slot for every read, cells in
// shuffled order, warm-up discarded, and the budget respected.
#include <catch2/catch.hpp>
#include <algorithm>
#include <functional>
#include <set>

#include "device/sim_device.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"
#include "read_probe.h"
#include "recording_device.h"

using namespace ssdprobe;
using test::row_samples;

namespace {

struct Recorded {
  GridPlan plan;
  GridProbeResult result;
  std::vector<IoRequest> requests;
  uint32_t max_in_flight;
};

using OpenRows = std::function<std::vector<uint64_t>(const LatencyGrid&, const UnitVerdict&)>;

Recorded record(const char* profile_name, Region region, double budget_s, uint32_t queue_depth = 1,
                uint64_t max_ios = GridProbeOptions{}.max_ios, OpenRows open_rows = nullptr) {
  SimDevice sim(*find_sim_profile(profile_name), 1, false);
  RecordingDevice device(sim);
  GridPlanInput in;
  in.target_size = sim.limits().size_bytes;
  in.logical_block = sim.limits().logical_block;
  in.region = region;
  const GridPlan plan = plan_read_grid(in);
  GridProbeOptions options;
  options.analysis = read_page_options(plan.candidates, 1);
  options.budget_s = budget_s;
  options.queue_depth = queue_depth;
  options.max_ios = max_ios;
  options.open_rows = std::move(open_rows);
  auto result = run_grid_probe(device, plan, options);
  return {plan, result, device.requests, device.max_in_flight};
}

uint64_t requests_of(const Recorded& r, uint64_t size) {
  return static_cast<uint64_t>(std::count_if(r.requests.begin(), r.requests.end(),
                                             [size](const IoRequest& io) { return io.length == size; }));
}

}  // namespace

TEST_CASE("4 KiB-sector drive: every read is 4 KiB aligned and a multiple of 4 KiB") {
  const auto r = record("nvme-4kn-32k", {}, 10);
  REQUIRE_FALSE(r.requests.empty());
  for (const auto& q : r.requests) {
    CHECK(q.op == IoOp::read);
    CHECK(q.offset % 4096 == 0);
    CHECK(q.length % 4096 == 0);
  }
}

TEST_CASE("reads stay inside --region") {
  const Region region{1ull << 30, 256ull << 20};
  const auto r = record("noisy-16k", region, 5);
  for (const auto& q : r.requests) {
    CHECK(q.offset >= region.offset);
    CHECK(q.offset + q.length <= region.offset + region.length);
  }
}

TEST_CASE("consecutive reads never revisit a recent slot") {
  const auto r = record("subtle-8k", {}, 10);
  std::vector<uint64_t> slots;
  for (const auto& q : r.requests) slots.push_back((q.offset - r.plan.first_slot) / r.plan.slot_bytes);
  for (size_t i = 0; i < slots.size(); ++i) {
    for (size_t back = 1; back <= 32 && back <= i; ++back) CHECK(slots[i] != slots[i - back]);
  }
}

TEST_CASE("warm-up reads are issued but not counted") {
  const auto r = record("nvme-tlc-16k", {}, 10);
  CHECK(r.requests.size() == r.result.ios + 64);
  CHECK(r.result.grid.total_samples() == r.result.ios);
}

TEST_CASE("cells are visited in shuffled order, not row by row") {
  const auto r = record("nvme-tlc-16k", {}, 10);
  size_t size_changes = 0;
  for (size_t i = 65; i < r.requests.size(); ++i) size_changes += r.requests[i].length != r.requests[i - 1].length;
  CHECK(size_changes > r.requests.size() / 2);
}

TEST_CASE("a tiny budget stops the probe early and says so") {
  const auto r = record("flat-dram", {}, 0.05);
  CHECK(r.result.stop_reason == GridStopReason::budget);
  CHECK(r.result.elapsed_s < 0.5);
}

TEST_CASE("queue depth is honoured") {
  const auto r = record("nvme-tlc-16k", {}, 5, 4);
  CHECK(r.max_in_flight == 4);
}

TEST_CASE("a simulated drive opened read-only refuses writes") {
  SimDevice sim(*find_sim_profile("nvme-tlc-16k"), 1, false);
  CHECK_THROWS(sim.submit(IoRequest{IoOp::write, 0, 4096, 0, 0}));
}

TEST_CASE("the IO cap bounds a grid that would never settle (no page, deep queue, long budget)") {
  const Recorded r = record("fourkn-flat", {}, 600, 8, 40000);
  CHECK(r.result.ios <= 40000);
  CHECK(r.result.stop_reason == GridStopReason::io_cap);
  CHECK_FALSE(r.result.verdict.bytes.has_value());
}

TEST_CASE("a settled grid samples on only the rows an open question names, and only while it is open") {
  const Recorded plain = record("nvme-tlc-16k", {}, 60);
  REQUIRE(plain.result.stop_reason == GridStopReason::settled);
  CHECK(plain.result.question_rounds == 0);

  int asked = 0;
  const Recorded asking = record("nvme-tlc-16k", {}, 60, 1, GridProbeOptions{}.max_ios,
                                 [&asked](const LatencyGrid&, const UnitVerdict& verdict) {
                                   ++asked;
                                   CHECK(verdict.settled);
                                   return std::vector<uint64_t>{4096};
                                 });
  CHECK(asking.result.stop_reason == GridStopReason::settled);
  CHECK(asking.result.question_rounds == GridProbeOptions{}.max_question_rounds);
  CHECK(asking.result.rounds == plain.result.rounds + asking.result.question_rounds);
  // The 4 KiB row got every extra sample: each question round doubles it.
  const uint64_t before = row_samples(plain.result.grid, 4096);
  CHECK(row_samples(asking.result.grid, 4096) >= 8 * before);
  CHECK(requests_of(asking, 8192) == requests_of(plain, 8192));
  CHECK(asking.result.corrected.total_samples() == asking.result.grid.total_samples());

  const Recorded answered = record("nvme-tlc-16k", {}, 60, 1, GridProbeOptions{}.max_ios,
                                   [](const LatencyGrid&, const UnitVerdict&) { return std::vector<uint64_t>{}; });
  CHECK(answered.result.question_rounds == 0);
  CHECK(answered.requests.size() == plain.requests.size());
}

TEST_CASE("an open question never outruns the budget") {
  const Recorded settled = record("nvme-tlc-16k", {}, 60);
  // Half as long again as the settled grid: room for one question round
  // (it needs a sample a cell affordable), not for all of them.
  const double budget_s = settled.result.elapsed_s * 1.5;
  const Recorded r = record("nvme-tlc-16k", {}, budget_s, 1, GridProbeOptions{}.max_ios,
                            [](const LatencyGrid&, const UnitVerdict&) { return std::vector<uint64_t>{4096, 16384}; });
  INFO("settled after " << settled.result.elapsed_s << " s; with the question " << r.result.elapsed_s << " s");
  CHECK(r.result.question_rounds >= 1);
  CHECK(r.result.question_rounds < GridProbeOptions{}.max_question_rounds);
  CHECK(r.result.elapsed_s <= budget_s);
  CHECK(r.result.stop_reason == GridStopReason::settled);
}
