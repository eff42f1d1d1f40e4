// probes/read_content_probe.h on simulated drives: never-written space reads
// as one byte (zeros), written space and a drive holding data do not.
#include <catch2/catch.hpp>

#include "device/sim_device.h"
#include "device/sim_profile.h"
#include "probes/grid_plan.h"
#include "probes/read_content_probe.h"
#include "runner/runner.h"

using namespace ssdprobe;

namespace {

GridPlan plan_for(const SimDevice& device, uint64_t offset, uint64_t length) {
  GridPlanInput input;
  input.target_size = device.limits().size_bytes;
  input.logical_block = device.limits().logical_block;
  input.region = Region{offset, length};
  return plan_read_grid(input);
}

}  // namespace

TEST_CASE("never-written space reads as zeros; once written it reads as data") {
  const SimProfile* fresh = find_sim_profile("fresh-16k");
  REQUIRE(fresh != nullptr);
  SimDevice device(*fresh, 1, true);
  const GridPlan plan = plan_for(device, 1ull << 30, 64ull << 20);
  const ReadContent before = sample_read_content(device, plan);
  CHECK(before.reads == 32);
  CHECK(before.bytes == 32u * 128 * 1024);
  REQUIRE(before.blank());
  CHECK(*before.only_byte == 0);

  // Write one slot the sample reads: the sample no longer reads as blank.
  ProbeRunner writer(device, 1, 128 * 1024);
  writer.fill_buffers(7);
  const PlannedIo write(IoOp::write, plan.first_slot, 128 * 1024);
  writer.run(std::span(&write, 1));
  const ReadContent after = sample_read_content(device, plan);
  CHECK_FALSE(after.blank());
  CHECK(after.reads == 32);
}

TEST_CASE("a drive that holds data never reads as blank") {
  const SimProfile* dram = find_sim_profile("flat-dram");
  REQUIRE(dram != nullptr);
  SimDevice device(*dram, 3, false);
  const ReadContent content = sample_read_content(device, plan_for(device, 0, 256ull << 20));
  CHECK(content.reads == 32);
  CHECK_FALSE(content.only_byte.has_value());
  CHECK_FALSE(content.blank());
}
