// Every shipped simulated drive, through the real probe and analysis: the
// read page is inferred exactly, or reported as not determined where the
// profile has nothing to find. Several seeds each, so a lucky draw cannot pass.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "device/sim_device.h"
#include "read_probe.h"

using namespace ssdprobe;

namespace {

// A drive that slows down steadily while it is probed (thermal throttling,
// background work): every IO takes `us_per_io` longer than the one before.
class DriftingDevice : public Device {
 public:
  DriftingDevice(Device& inner, double us_per_io) : inner_(inner), ns_per_io_(us_per_io * 1000.0) {}
  const DeviceLimits& limits() const override { return inner_.limits(); }
  std::string engine_description() const override { return "drifting " + inner_.engine_description(); }
  bool writable() const override { return inner_.writable(); }
  void attach_buffers(std::span<AlignedBuffer> buffers) override { inner_.attach_buffers(buffers); }
  void submit(const IoRequest& request) override { inner_.submit(request); }
  IoCompletion wait_one() override {
    const IoCompletion done = inner_.wait_one();
    extra_ns_ += static_cast<uint64_t>(ns_per_io_ * static_cast<double>(++completed_));
    return done;
  }
  uint64_t now_ns() override { return inner_.now_ns() + extra_ns_; }
  void idle(uint64_t ns) override { inner_.idle(ns); }

 private:
  Device& inner_;
  double ns_per_io_;
  uint64_t completed_ = 0, extra_ns_ = 0;
};

GridProbeResult probe_device(Device& device, uint64_t seed, uint32_t queue_depth, double budget_s) {
  return test::read_probe(device, seed, budget_s, queue_depth);
}

GridProbeResult probe_profile(const SimProfile& profile, uint64_t seed, uint32_t queue_depth = 1) {
  SimDevice device(profile, seed, false);
  return probe_device(device, seed, queue_depth, 60);
}

}  // namespace

TEST_CASE("every profile's read page is inferred exactly or reported as not determined") {
  for (const auto& profile : sim_profiles()) {
    for (uint64_t seed : {1, 2, 3, 4}) {
      INFO(fmt::format("profile {} seed {}", profile.name, seed));
      const GridProbeResult result = probe_profile(profile, seed);
      INFO(result.verdict.evidence);
      const auto expected = profile.expected_read_page();
      if (expected) {
        REQUIRE(result.verdict.bytes.has_value());
        CHECK(*result.verdict.bytes == *expected);
        CHECK(result.verdict.confidence >= 0.9);
      } else {
        CHECK_FALSE(result.verdict.bytes.has_value());
        CHECK(result.verdict.confidence == 0.0);
      }
    }
  }
}

TEST_CASE("the smaller and larger levels of a profile are reported beside the page") {
  const GridProbeResult result = probe_profile(*find_sim_profile("multiplane-16k"), 1);
  std::vector<uint64_t> units;
  for (const auto& level : result.verdict.levels) units.push_back(level.unit_bytes);
  CHECK(units == std::vector<uint64_t>{4096, 16384, 65536});
}

TEST_CASE("queue depth 8 still finds the page") {
  const GridProbeResult result = probe_profile(*find_sim_profile("nvme-tlc-16k"), 1, 8);
  REQUIRE(result.verdict.bytes.has_value());
  CHECK(*result.verdict.bytes == 16384);
}

TEST_CASE("the same seed gives the same run, bit for bit") {
  const auto a = probe_profile(*find_sim_profile("noisy-16k"), 5);
  const auto b = probe_profile(*find_sim_profile("noisy-16k"), 5);
  CHECK(a.ios == b.ios);
  CHECK(a.grid.samples == b.grid.samples);
  CHECK(a.verdict.evidence == b.verdict.evidence);
}

TEST_CASE("regression: at queue depth 4 and 8 a drive without a page shows none (rounds weighted towards some "
          "cells used to change the queueing they saw and fake a 128 KiB level)") {
  for (uint32_t depth : {4u, 8u}) {
    for (uint64_t seed : {1, 2, 3}) {
      INFO(fmt::format("qd {} seed {}", depth, seed));
      SimDevice device(*find_sim_profile("flat-dram"), seed, false);
      const GridProbeResult result = probe_device(device, seed, depth, 1);
      INFO(result.verdict.evidence);
      CHECK_FALSE(result.verdict.bytes.has_value());
    }
  }
  SimDevice device(*find_sim_profile("nvme-4kn-32k"), 1, false);
  const GridProbeResult result = probe_device(device, 1, 8, 1);
  INFO(result.verdict.evidence);
  REQUIRE(result.verdict.bytes.has_value());
  CHECK(*result.verdict.bytes == 32768);
}

TEST_CASE("a drive that slows down during the probe: drift is removed, not mistaken for a level") {
  for (uint64_t seed : {1, 2}) {
    INFO(fmt::format("seed {}", seed));
    SimDevice flat(*find_sim_profile("flat-dram"), seed, false);
    DriftingDevice drifting_flat(flat, 0.002);
    const GridProbeResult none = probe_device(drifting_flat, seed, 1, 20);
    INFO(none.verdict.evidence);
    CHECK_FALSE(none.verdict.bytes.has_value());
    REQUIRE(none.round_shifts_us.size() >= 2);
    CHECK(none.round_shifts_us.back() > 1.0);  // the drift was there, and was measured

    SimDevice paged(*find_sim_profile("nvme-tlc-16k"), seed, false);
    DriftingDevice drifting_paged(paged, 0.002);
    const GridProbeResult page = probe_device(drifting_paged, seed, 1, 20);
    INFO(page.verdict.evidence);
    REQUIRE(page.verdict.bytes.has_value());
    CHECK(*page.verdict.bytes == 16384);
  }
}
