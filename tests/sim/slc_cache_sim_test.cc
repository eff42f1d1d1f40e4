// SLC caches on simulated drives, over many seeds: the cache probe finds a
// cache within 10 % of its size or reports a lower bound (never a guess), a
// drive without one is never said to have one, and a --write run measures
// the native write unit (what data lands in once the cache is full): right
// or not determined, never the in-cache unit, and the same after idling.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>

#include "core/units.h"
#include "device/sim_device.h"
#include "probes/slc_cache_probe.h"
#include "recording_device.h"
#include "run/runs.h"
#include "run/write_bound.h"
#include "safety/write_session.h"

using namespace ssdprobe;

namespace {

// The verdict's SLC cache answer (other units, such as open units, may follow it).
const VerdictUnit& slc_unit(const Verdict& verdict) {
  for (const VerdictUnit& unit : verdict.units) {
    if (unit.name == "slc_cache") return unit;
  }
  FAIL("the verdict has no slc_cache unit");
  return verdict.units.front();
}

SlcCacheResult probe(Device& device, uint64_t cap, double recovery_idle_s = 0.0) {
  SlcCacheOptions options;
  options.window = default_write_window(device.limits().size_bytes);
  options.cap_bytes = cap;
  options.recovery_idle_s = recovery_idle_s;
  return run_slc_cache_probe(device, options);
}

// A noisier drive than any shipped one, with stalls on both sides of the drop.
SimProfile noisy_cached(uint64_t cache_bytes) {
  SimProfile p = *find_sim_profile("tlc-slc-128m");
  p.name = "noisy-cached";
  p.slc_cache.bytes = cache_bytes;
  p.noise_sigma = 0.15;
  p.outlier_probability = 0.02;
  p.outlier_us = 3000.0;
  return p;
}

Options write_run(const std::string& sim, uint64_t seed) {
  Options options;
  options.target = sim;
  options.write = true;
  options.yes = true;
  options.quiet = true;
  options.seed = seed;
  return options;
}

}  // namespace

TEST_CASE("a cache smaller than the window, and one between the window and the cap: found within 10 %") {
  for (const char* name : {"tlc-slc-128m", "qlc-slc-2g"}) {
    const SimProfile& profile = *find_sim_profile(name);
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      INFO(fmt::format("{} seed {}", name, seed));
      SimDevice device(profile, seed, true);
      const SlcCacheResult result = probe(device, kDefaultCacheCapBytes);
      REQUIRE(result.first.drop);
      CHECK(result.first.end == FillEnd::drop);
      const double found = static_cast<double>(result.first.bytes_before_drop());
      CHECK(std::abs(found / static_cast<double>(profile.slc_cache.bytes) - 1.0) <= 0.10);
      CHECK(result.first.drop->after_median_us > 2.0 * result.first.drop->before_median_us);
    }
  }
}

TEST_CASE("noise and stalls on both sides of the drop: found within 10 %") {
  for (uint64_t cache : {96ull << 20, 700ull << 20}) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      INFO(fmt::format("cache {} seed {}", cache, seed));
      SimDevice device(noisy_cached(cache), seed, true);
      const SlcCacheResult result = probe(device, kDefaultCacheCapBytes);
      REQUIRE(result.first.drop);
      CHECK(std::abs(static_cast<double>(result.first.bytes_before_drop()) / static_cast<double>(cache) - 1.0) <= 0.10);
    }
  }
}

TEST_CASE("a busy host (a tenth of the writes held up by more than a native write) hides no cache") {
  for (uint64_t cache : {96ull << 20, 700ull << 20}) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      INFO(fmt::format("cache {} seed {}", cache, seed));
      SimProfile busy = noisy_cached(cache);
      busy.outlier_probability = 0.10;
      busy.outlier_us = 8000.0;  // a 1 MiB write takes ~1 ms in the cache, ~5 ms after it
      SimDevice device(busy, seed, true);
      const SlcCacheResult result = probe(device, kDefaultCacheCapBytes);
      REQUIRE(result.first.drop);
      CHECK(std::abs(static_cast<double>(result.first.bytes_before_drop()) / static_cast<double>(cache) - 1.0) <= 0.10);
    }
  }
}

TEST_CASE("a cache larger than the cap is a lower bound: no drop, every byte written below the cache") {
  SimProfile profile = noisy_cached(64ull << 30);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SimDevice device(profile, seed, true);
    const SlcCacheResult result = probe(device, 2ull << 30);
    CHECK_FALSE(result.first.drop);
    CHECK_FALSE(result.first.cut_by_budget());
    CHECK(result.first.written_bytes() == (2ull << 30));
  }
}

TEST_CASE("a drop the cap cut short of a second look is still found, but the cap ended the fill") {
  // 128 MiB of cache: its drop shows once 32 slower writes follow it (160
  // MiB), and the next look would come 16 writes later, past a 170 MiB cap.
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    INFO(fmt::format("seed {}", seed));
    SimDevice device(*find_sim_profile("tlc-slc-128m"), seed, true);
    const SlcCacheResult result = probe(device, 170ull << 20);
    REQUIRE(result.first.drop);
    CHECK(result.first.end != FillEnd::drop);
    CHECK(result.first.written_bytes() == (170ull << 20));
  }
}

TEST_CASE("drives without a cache are never said to have one") {
  for (const auto& profile : sim_profiles()) {
    if (profile.slc_cache.bytes != 0) continue;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      INFO(fmt::format("{} seed {}", profile.name, seed));
      SimDevice device(profile, seed, true);
      const SlcCacheResult result = probe(device, 1ull << 30);
      CHECK_FALSE(result.first.drop);
    }
  }
}

// A drive of `capacity` bytes with `cache` bytes of SLC cache (0: none),
// probed with the flat end a run gives a whole drive of that size.
SlcCacheResult probe_small_drive(uint64_t capacity, uint64_t cache, uint64_t seed) {
  SimProfile profile = noisy_cached(cache);
  profile.capacity_bytes = capacity;
  if (cache == 0) profile.slc_cache = {};
  SimDevice device(profile, seed, true);
  SlcCacheOptions options;
  options.window = default_write_window(device.limits().size_bytes);
  options.cap_bytes = slc_fill_cap(kDefaultCacheCapBytes, capacity);
  options.flat_stop_bytes = slc_flat_stop(options.cap_bytes, capacity);
  options.recovery_idle_s = 0.0;
  return run_slc_cache_probe(device, options);
}

TEST_CASE("no cache on a small drive: the fill ends at a flat speed past a third of it, not at 1.2 times it") {
  constexpr uint64_t capacity = 1ull << 30;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    INFO(fmt::format("seed {}", seed));
    const SlcCacheResult result = probe_small_drive(capacity, 0, seed);
    CHECK_FALSE(result.first.drop);
    CHECK(result.first.end == FillEnd::flat_speed);
    // Looks come every 3 % of the writes: the end is at most one look late.
    const uint64_t flat = slc_flat_stop(slc_fill_cap(kDefaultCacheCapBytes, capacity), capacity);
    CHECK(result.first.written_bytes() >= flat);
    CHECK(result.first.written_bytes() <= flat * 104 / 100);
    CHECK(result.first.written_bytes() < slc_fill_cap(kDefaultCacheCapBytes, capacity) / 2);
  }
}

TEST_CASE("a cache near a third of a small drive is still found: the step it shows keeps the fill going") {
  // 30 % of the drive: confirmed inside the flat end. 36 %: its drop is not
  // confirmable when the flat end comes (too few slower writes after it),
  // but it is a step, so the fill goes on to the cap's reach and confirms it.
  constexpr uint64_t capacity = 300ull << 20;
  for (uint64_t cache : {90ull << 20, 108ull << 20}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      INFO(fmt::format("cache {} seed {}", format_size(cache), seed));
      const SlcCacheResult result = probe_small_drive(capacity, cache, seed);
      REQUIRE(result.first.drop);
      CHECK(result.first.end != FillEnd::flat_speed);
      const double found = static_cast<double>(result.first.bytes_before_drop());
      CHECK(std::abs(found / static_cast<double>(cache) - 1.0) <= 0.10);
    }
  }
}

TEST_CASE("the second fill after idling finds what the drive emptied in that time") {
  const SimProfile& profile = *find_sim_profile("qlc-slc-2g");  // refills at 256 MiB/s
  SimDevice device(profile, 1, true);
  const SlcCacheResult result = probe(device, kDefaultCacheCapBytes, 4.0);
  REQUIRE(result.recovery);
  REQUIRE(result.recovery->drop);
  const double expected = 4.0 * profile.slc_cache.recover_bytes_per_s;  // 1 GiB
  CHECK(std::abs(static_cast<double>(result.recovery->bytes_before_drop()) / expected - 1.0) <= 0.10);
}

TEST_CASE("the probe writes only inside its window, whole blocks, and within its cap") {
  SimDevice sim(*find_sim_profile("tlc-slc-128m"), 1, true);
  RecordingDevice device(sim);
  const Region window = default_write_window(sim.limits().size_bytes);
  const SlcCacheResult result = probe(device, 300ull << 20, 2.0);
  uint64_t written = 0;
  for (const auto& q : device.requests) {
    CHECK(q.op == IoOp::write);
    CHECK(q.offset >= window.offset);
    CHECK(q.offset + q.length <= window.offset + window.length);
    written += q.length;
  }
  CHECK(written == result.bytes_written);
  CHECK(written <= (300ull << 20));
}

TEST_CASE("a --write run on a cached drive: native write unit, right or not determined; runs agree") {
  for (const char* name : {"tlc-slc-128m", "qlc-slc-2g"}) {
    const SimProfile& profile = *find_sim_profile(name);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      INFO(fmt::format("{} seed {}", name, seed));
      SilentObserver quiet;
      const RunResult run = characterize(write_run(std::string("sim:") + name, seed), quiet);
      const ResultDocument& doc = run.doc;
      REQUIRE(doc.slc_cache.state == UnitState::found);
      CHECK(std::abs(static_cast<double>(*doc.slc_cache.bytes) / static_cast<double>(profile.slc_cache.bytes) - 1.0) <=
            0.10);
      CHECK(doc.write_unit.regime == "native");
      if (doc.write_unit.bytes) CHECK(*doc.write_unit.bytes == *profile.expected_write_unit());
      CHECK(doc.write_unit.bytes != profile.expected_in_cache_write_unit());
      if (doc.erase_block.bytes) CHECK(*doc.erase_block.bytes == profile.erase_block);
      CHECK(slc_unit(doc.verdict).text.find("writes beyond ~") != std::string::npos);
      // The grid inside the cache, after it refilled: the cache's own unit,
      // right or not determined, and named beside the native one.
      REQUIRE(doc.slc_cache_detail);
      REQUIRE(doc.slc_cache_detail->write_unit);
      const DetectedUnit& in_cache = *doc.slc_cache_detail->write_unit;
      if (in_cache.bytes) CHECK(*in_cache.bytes == *profile.expected_in_cache_write_unit());
      CHECK(in_cache.regime == "slc_cache");
      if (in_cache.bytes && doc.write_unit.bytes) {
        CHECK(doc.verdict.units[1].text.find(format_size(*in_cache.bytes) + " inside the cache") != std::string::npos);
      }
    }
  }
}

TEST_CASE("a cache the run could not exhaust: not determined, never the first thing to do; no hedge without a second state seen") {
  Options options = write_run("sim:qlc-slc-2g", 1);
  options.budget_s = 10;  // the cache probe's share writes ~1.3 GiB of the 2 GiB cache
  SilentObserver quiet;
  const RunResult run = characterize(options, quiet);
  const ResultDocument& doc = run.doc;
  CHECK(doc.slc_cache.state == UnitState::undetermined);
  REQUIRE(doc.slc_cache.searched_up_to_bytes);
  CHECK(*doc.slc_cache.searched_up_to_bytes < (2ull << 30));
  CHECK(doc.write_unit.regime == "unknown");
  // The fill saw one state: nothing measured says the unit is the cache's.
  CHECK(doc.verdict.units[1].text.find("it may be the cache's unit") == std::string::npos);
  CHECK(slc_unit(doc.verdict).to_determine.find("--budget") != std::string::npos);
  CHECK(slc_unit(doc.verdict).rerun.find("--budget") != std::string::npos);
  // The cache's size changes no alignment or block-size advice.
  CHECK((!doc.verdict.first_action || doc.verdict.first_action->command.find("--budget") == std::string::npos ||
         doc.write_unit.state != UnitState::found));
  bool said = false;
  for (const auto& line : doc.verdict.lines) said = said || line.find("SLC cache") != std::string::npos;
  CHECK(said);
}

TEST_CASE("a --write run on a drive whose cache fits the cap stays within --budget, every phase counted") {
  for (const char* name : {"tlc-slc-128m", "qlc-slc-2g"}) {
    for (double budget : {20.0, 60.0}) {
      INFO(fmt::format("{} --budget {}", name, budget));
      Options options = write_run(std::string("sim:") + name, 3);
      options.budget_s = budget;
      SilentObserver quiet;
      const RunResult run = characterize(options, quiet);
      double device_time_s = 0.0;
      for (const auto& phase : run.doc.phases) device_time_s += phase.device_time_s;
      CHECK(device_time_s <= budget);
      CHECK(device_time_s >= 0.25 * budget);  // the phases are timed at all
    }
  }
}

TEST_CASE("the grid inside the cache: its unit right or not determined at any budget, and within --cache-bytes") {
  const SimProfile& profile = *find_sim_profile("tlc-slc-128m");
  int found = 0;
  for (double budget : {8.0, 10.0, 12.0, 20.0, 30.0, 60.0}) {
    for (uint64_t cache_bytes : {356ull << 20, 16ull << 30}) {
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        INFO(fmt::format("--budget {} --cache-bytes {} seed {}", budget, cache_bytes, seed));
        Options options = write_run("sim:tlc-slc-128m", seed);
        options.budget_s = budget;
        options.cache_bytes = cache_bytes;
        SilentObserver quiet;
        const ResultDocument doc = characterize(options, quiet).doc;
        REQUIRE(doc.slc_cache_detail);
        const SlcCacheDetail& cache = *doc.slc_cache_detail;
        CHECK(cache.written_bytes + cache.write_unit_written_bytes <= cache_bytes);
        if (!cache.write_unit) continue;
        CHECK((cache.write_unit->state == UnitState::found) == cache.write_unit->bytes.has_value());
        if (cache.write_unit->bytes) {
          CHECK(*cache.write_unit->bytes == *profile.expected_in_cache_write_unit());
          ++found;
        }
      }
    }
  }
  CHECK(found >= 6);  // the default budget finds it
}
