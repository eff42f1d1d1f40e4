// The read grid adapts to the sector size, stays inside the region and puts
// every slot on a disk position aligned to all candidate units.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "probes/grid_plan.h"

using namespace ssdprobe;

TEST_CASE("512 B sectors: sizes from 512 B, offsets every 512 B") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  const GridPlan plan = plan_read_grid(in);
  CHECK(plan.sizes.front() == 512);
  CHECK(plan.sizes.back() == 32768);
  CHECK(plan.offsets.size() == 256);
  CHECK(plan.offsets[1] == 512);
  CHECK(plan.candidates.front() == 1024);
  CHECK(plan.candidates.back() == 131072);
  for (uint64_t unit : plan.candidates) CHECK(plan.slot_bytes % unit == 0);
  CHECK(plan.slot_bytes >= 131072 + 32768);
  CHECK(plan.notes.empty());
}

TEST_CASE("4 KiB sectors: no request below or off a 4 KiB boundary, and the plan says so") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.logical_block = 4096;
  const GridPlan plan = plan_read_grid(in);
  for (uint64_t size : plan.sizes) CHECK(size % 4096 == 0);
  for (uint64_t offset : plan.offsets) CHECK(offset % 4096 == 0);
  CHECK(plan.first_slot % 4096 == 0);
  CHECK(plan.candidates.front() == 8192);
  REQUIRE(plan.notes.size() == 1);
  CHECK(plan.notes[0].find("4 KiB") != std::string::npos);
}

TEST_CASE("a partition's slots are aligned on the disk, not on the partition") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.disk_start = 1536;  // seed 003's misaligned partition
  const GridPlan plan = plan_read_grid(in);
  CHECK((in.disk_start + plan.location(0, 0)) % plan.slot_bytes == 0);
  CHECK((in.disk_start + plan.location(7, 3)) % plan.slot_bytes == 3 * 512);
}

TEST_CASE("the region bounds every location") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.region = {64ull << 20, 32ull << 20};
  const GridPlan plan = plan_read_grid(in);
  const uint64_t last = plan.location(plan.slot_count - 1, plan.offsets.size() - 1) + plan.sizes.back();
  CHECK(plan.location(0, 0) >= in.region.offset);
  CHECK(last <= in.region.offset + in.region.length);
}

TEST_CASE("a target too small for the grid is refused with the size it needs") {
  GridPlanInput in;
  in.target_size = 1ull << 20;
  try {
    plan_read_grid(in);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::target);
    CHECK(std::string(e.what()).find("too small") != std::string::npos);
  }
}

TEST_CASE("a region outside the target is a usage error") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.region = {2ull << 30, 0};
  CHECK_THROWS_AS(plan_read_grid(in), Error);
  in.region = {512ull << 20, 1ull << 30};
  CHECK_THROWS_AS(plan_read_grid(in), Error);
}

TEST_CASE("sizes are capped by the largest transfer") {
  GridPlanInput in;
  in.target_size = 1ull << 30;
  in.max_transfer = 8192;
  const GridPlan plan = plan_read_grid(in);
  CHECK(plan.sizes.back() == 8192);
  CHECK_FALSE(plan.notes.empty());
}
