// Write probes on every simulated drive: the write unit and the erase block
// are inferred exactly, or null where the profile has no signal (or the
// erase block is larger than the window can show), and the probes never
// write outside the window.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "device/sim_device.h"
#include "probes/grid_plan.h"
#include "probes/erase_stream_probe.h"
#include "probes/grid_probe.h"
#include "probes/slc_cache_probe.h"
#include "recording_device.h"
#include "safety/write_session.h"
#include "sim_write_grid.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kChunk = 64 * 1024;

EraseStreamResult stream(Device& device, const Region& window, uint64_t chunk, uint64_t seed) {
  EraseStreamOptions options;
  options.window = window;
  options.chunk_bytes = chunk;
  options.seed = seed;
  return run_erase_stream(device, options);
}

// A drive with an SLC cache is measured as a --write run measures it: after
// the cache probe has run the cache out, in the native state.
void exhaust_cache(Device& device, const SimProfile& profile, const Region& window) {
  if (profile.slc_cache.bytes == 0) return;
  SlcCacheOptions options;
  options.window = window;
  options.recovery_idle_s = 0.0;
  REQUIRE(run_slc_cache_probe(device, options).first.drop);
}

}  // namespace

TEST_CASE("every profile's write unit is inferred exactly or reported as not determined") {
  for (const auto& profile : sim_profiles()) {
    for (uint64_t seed : {1, 2, 3}) {
      INFO(fmt::format("profile {} seed {}", profile.name, seed));
      SimDevice device(profile, seed, true);
      const Region window = default_write_window(device.limits().size_bytes);
      exhaust_cache(device, profile, window);
      const GridProbeResult result = sim_write_grid(device, window, seed);
      INFO(result.verdict.evidence);
      const auto expected = profile.expected_write_unit();
      if (expected) {
        REQUIRE(result.verdict.bytes.has_value());
        CHECK(*result.verdict.bytes == *expected);
      } else {
        CHECK_FALSE(result.verdict.bytes.has_value());
      }
    }
  }
}

TEST_CASE("every profile's erase block is inferred exactly or null with the size searched") {
  for (const auto& profile : sim_profiles()) {
    for (uint64_t seed : {1, 2}) {
      INFO(fmt::format("profile {} seed {}", profile.name, seed));
      SimDevice device(profile, seed, true);
      const Region window = default_write_window(device.limits().size_bytes);
      exhaust_cache(device, profile, window);
      // Whole program units per write, as the erase_stream phase writes them.
      uint64_t chunk = profile.program_unit;
      while (chunk < kChunk) chunk *= 2;
      const EraseStreamResult result = stream(device, window, chunk, seed);
      INFO(result.verdict.evidence);
      const auto expected = profile.expected_erase_block(window.length, chunk);
      if (expected) {
        REQUIRE(result.verdict.bytes.has_value());
        CHECK(*result.verdict.bytes == *expected);
        CHECK(result.verdict.confidence > 0.99);
      } else {
        CHECK_FALSE(result.verdict.bytes.has_value());
        CHECK(result.verdict.evidence.find("up to") != std::string::npos);
      }
    }
  }
}

TEST_CASE("a mapping unit below the program unit is reported as a smaller level") {
  SimDevice device(*find_sim_profile("nvme-tlc-16k"), 1, true);
  const GridProbeResult result = sim_write_grid(device, default_write_window(device.limits().size_bytes), 1);
  bool mapping = false;
  for (const auto& level : result.verdict.levels) mapping |= level.unit_bytes == 4096;
  CHECK(mapping);
}

TEST_CASE("write probes stay inside their window and write whole logical blocks") {
  SimDevice sim(*find_sim_profile("nvme-4kn-32k"), 1, true);
  RecordingDevice device(sim);
  const Region window{1ull << 30, 256ull << 20};
  sim_write_grid(device, window, 1);
  stream(device, window, kChunk, 1);
  uint64_t writes = 0;
  for (const auto& q : device.requests) {
    CHECK(q.offset >= window.offset);
    CHECK(q.offset + q.length <= window.offset + window.length);
    CHECK(q.offset % 4096 == 0);
    CHECK(q.length % 4096 == 0);
    writes += q.op == IoOp::write;
  }
  CHECK(writes == device.requests.size());
}

TEST_CASE("the default write window avoids the first and last MiB") {
  const Region big = default_write_window(1ull << 40);
  CHECK(big.length == (256ull << 20));
  CHECK(big.offset % (1 << 20) == 0);
  const Region small = default_write_window(64ull << 20);
  CHECK(small.offset >= (1 << 20));
  CHECK(small.offset + small.length <= (63ull << 20));
  CHECK_THROWS(default_write_window(4ull << 20));
}
