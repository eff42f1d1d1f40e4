// The open-units probe on simulated drives: drives that keep 2, 4 and 7
// erase blocks open are answered exactly (the ladder's gap halved down to
// one), drives without the limit are "none up to N", over several seeds;
// the probe never writes outside its stretches, and stops at its byte cap.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/units.h"
#include "device/sim_device.h"
#include "probes/open_units_probe.h"
#include "recording_device.h"
#include "safety/write_session.h"

using namespace ssdprobe;

namespace {

OpenUnitsOptions options_for(const SimProfile& profile, uint64_t capacity, uint64_t seed) {
  OpenUnitsOptions options;
  options.window = default_write_window(capacity);
  options.stretch_bytes = profile.erase_block;
  options.io_bytes = profile.program_unit;
  options.seed = seed;
  return options;
}

OpenUnitsVerdict probe(const SimProfile& profile, uint64_t seed) {
  SimDevice device(profile, seed, true);
  const OpenUnitsOptions options = options_for(profile, device.limits().size_bytes, seed);
  const OpenUnitsResult result = run_open_units_probe(device, options);
  return infer_open_units(result.steps, true);
}

}  // namespace

TEST_CASE("the ladder tries 1, 2, 3, 4, 6, 8, 12, 16 ... up to what the window holds") {
  CHECK(stream_ladder(1) == std::vector<uint32_t>{1});
  CHECK(stream_ladder(10) == std::vector<uint32_t>{1, 2, 3, 4, 6, 8});
  CHECK(stream_ladder(64) == std::vector<uint32_t>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64});
}

TEST_CASE("drives that keep 2, 4 and 7 erase blocks open are answered exactly") {
  for (const char* name : {"sd-open2", "usb-open4", "emmc-open7"}) {
    const SimProfile& profile = *find_sim_profile(name);
    for (uint64_t seed : {1, 2, 3}) {
      INFO(fmt::format("{} seed {}", name, seed));
      const OpenUnitsVerdict v = probe(profile, seed);
      INFO(v.evidence);
      REQUIRE(v.state == UnitState::found);
      CHECK(*v.streams == *profile.expected_open_units());
      CHECK(*v.at_most == *profile.expected_open_units());
      CHECK(v.confidence > 0.99);
    }
  }
}

TEST_CASE("drives without the limit write as many streams as the window holds as fast as one") {
  for (const char* name : {"nvme-tlc-16k", "sata-mlc-8k", "clean-4k"}) {
    const SimProfile& profile = *find_sim_profile(name);
    REQUIRE_FALSE(profile.expected_open_units());
    for (uint64_t seed : {1, 2}) {
      INFO(fmt::format("{} seed {}", name, seed));
      const OpenUnitsVerdict v = probe(profile, seed);
      INFO(v.evidence);
      CHECK(v.state == UnitState::absent);
      CHECK(v.searched_up_to >= 8u);
    }
  }
}

TEST_CASE("every write stays in its stream's stretch, stream after stream in turn, and within the byte cap") {
  const SimProfile& profile = *find_sim_profile("sata-mlc-8k");
  SimDevice sim(profile, 1, true);
  RecordingDevice device(sim);
  OpenUnitsOptions options = options_for(profile, device.limits().size_bytes, 1);
  options.cap_bytes = 8ull << 20;
  const OpenUnitsResult result = run_open_units_probe(device, options);
  CHECK(result.cut_by_cap);
  CHECK(result.bytes_written <= options.cap_bytes);
  uint64_t written = 0;
  for (const auto& io : device.requests) {
    REQUIRE(io.op == IoOp::write);
    CHECK(io.offset >= options.window.offset);
    const uint64_t stretch = (io.offset - options.window.offset) / options.stretch_bytes;
    CHECK((io.offset + io.length - 1 - options.window.offset) / options.stretch_bytes == stretch);
    written += io.length;
  }
  CHECK(written == result.bytes_written);
  // Round-robin: the first step after one stream's writes goes 0, 1, 0, 1, ...
  const uint32_t first_step_writes = (options.warmup_rounds + options.timed_rounds);
  const auto& second = device.requests.at(first_step_writes + 1);
  CHECK((second.offset - options.window.offset) / options.stretch_bytes == 1);
}
