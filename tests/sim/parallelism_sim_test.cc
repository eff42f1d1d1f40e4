// The parallelism probe on every simulated drive, over many seeds: a found
// value must be the truth (the profile's units and interleave; for the knee
// and plateau, what a closed queue over the profile's units gives), and the
// drives without the signal (flat-dram: nothing serializes) must never get
// a units or interleave verdict. Counts are printed so the false-verdict
// rate can be quoted.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>

#include "core/error.h"
#include "core/random.h"
#include "device/sim_device.h"
#include "device/sim_latency.h"
#include "probes/parallelism_plan.h"
#include "probes/parallelism_probe.h"
#include "probes/slc_cache_probe.h"
#include "recording_device.h"
#include "safety/write_session.h"

using namespace ssdprobe;

namespace {

ParallelismProbeResult probe(const SimProfile& profile, uint64_t seed) {
  SimDevice device(profile, seed, false);
  ParallelismPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.logical_block = device.limits().logical_block;
  in.max_queue_depth = device.limits().max_queue_depth;
  in.read_page = profile.expected_read_page();
  ParallelismProbeOptions options;
  options.seed = seed;
  return run_parallelism_probe(device, plan_parallelism(in), options);
}

// IOPS of `depth` IOs kept in flight over `units` FIFO units, each IO on a
// uniformly random unit and taking a service time drawn as the profile's
// noise draws it (log-normal jitter and rare outliers): the knee's ground
// truth, computed without the probe (its own event loop, many completions).
double model_iops(const SimProfile& p, uint32_t depth, double ideal_us) {
  Random random(12345 + depth);
  auto service = [&] {
    double us = ideal_us * std::exp(p.noise_sigma * random.normal());
    if (random.uniform() < p.outlier_probability) us += p.outlier_us * (0.5 + random.uniform());
    return us;
  };
  if (p.parallel_units == 0) {  // nothing waits: depth IOs per mean service time
    const double mean_us = ideal_us * std::exp(p.noise_sigma * p.noise_sigma / 2) + p.outlier_probability * p.outlier_us;
    return depth / mean_us * 1e6;
  }
  const uint32_t units = p.parallel_units;
  std::vector<std::deque<int>> queue(units);
  using Event = std::pair<double, uint32_t>;  // completion time, unit
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  auto arrive = [&](double now) {
    const auto u = static_cast<uint32_t>(random.below(units));
    queue[u].push_back(0);
    if (queue[u].size() == 1) events.push({now + service(), u});
  };
  for (uint32_t i = 0; i < depth; ++i) arrive(0.0);
  const int warm = 2000, counted = 200000;
  double start = 0.0, now = 0.0;
  for (int done = 0; done < warm + counted; ++done) {
    const auto [t, u] = events.top();
    events.pop();
    now = t;
    if (done == warm) start = now;
    queue[u].pop_front();
    if (!queue[u].empty()) events.push({now + service(), u});
    arrive(now);
  }
  return counted / (now - start) * 1e6;
}

struct KneeTruth {
  std::vector<uint32_t> acceptable;  // the knee, and a neighbour when the model sits within 3 % of the share
  double plateau = 0.0;
  std::string curve;                 // the model's share of the plateau per depth, for the failure message
};

KneeTruth knee_truth(const SimProfile& p, const std::vector<uint32_t>& depths, IoOp op = IoOp::read) {
  SimLatencyModel model(p, 1);
  const uint32_t bytes = std::max<uint32_t>(4096, p.logical_block);
  // A never-written drive answers reads from the mapping table: no NAND
  // sense. A random small write programs part of one program unit.
  const double service = op == IoOp::write ? model.ideal_write_us(bytes, bytes, false)
                         : p.unwritten_reads_skip_nand ? p.read_base_us + p.transfer_us_per_kib * bytes / 1024.0
                                                       : model.ideal_read_us(0, bytes);
  std::vector<double> iops;
  for (uint32_t d : depths) iops.push_back(model_iops(p, d, service));
  KneeTruth truth;
  truth.plateau = *std::max_element(iops.begin(), iops.end());
  for (size_t i = 0; i < depths.size(); ++i) truth.curve += fmt::format(" {}:{:.3f}", depths[i], iops[i] / truth.plateau);
  // The first depth reaching the share; its neighbour too when either sits
  // within 4 % of the share: noise may then pick either, and short segments
  // measure a few % high on a drive whose rare outliers are 27x its service
  // time (sim:fresh-16k: the model gives 86.7 % at depth 32, seed 9
  // measured 93 %).
  constexpr double kSlack = 0.04;
  for (size_t i = 0; i < depths.size(); ++i) {
    if (iops[i] < kKneeShare * truth.plateau) continue;
    truth.acceptable.push_back(depths[i]);
    if (i > 0 && iops[i - 1] >= (kKneeShare - kSlack) * truth.plateau) truth.acceptable.push_back(depths[i - 1]);
    if (i + 1 < depths.size() && iops[i] < (kKneeShare + kSlack) * truth.plateau) truth.acceptable.push_back(depths[i + 1]);
    break;
  }
  return truth;
}

}  // namespace

// The depths the verdict was judged on (a refined depth with too few
// segments is left out), and every power of two the plan held: the truth
// is judged over all of them, so a sweep that stopped climbing before the
// plateau (sweep_levelled_off) shows here as a wrong knee or a plateau too
// low.
std::vector<uint32_t> depths_run(const ParallelismVerdict& v) {
  std::vector<uint32_t> depths;
  for (const auto& d : v.depths) {
    if (d.segment_iops.size() >= kMinDepthSegments) depths.push_back(d.queue_depth);
  }
  for (uint32_t d = 1; d <= kLargestDepth; d *= 2) depths.push_back(d);
  std::sort(depths.begin(), depths.end());
  depths.erase(std::unique(depths.begin(), depths.end()), depths.end());
  return depths;
}

TEST_CASE("parallelism verdicts over every profile and many seeds: found values are the truth") {
  const int seeds = 10;
  int units_found = 0, units_false = 0, interleave_found = 0, interleave_false = 0, knee_found = 0, knee_false = 0,
      cases = 0, signal_cases = 0;
  std::string table;
  for (const auto& profile : sim_profiles()) {
    int profile_knees = 0, profile_units = 0, profile_interleaves = 0;
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
      const ParallelismProbeResult r = probe(profile, seed);
      const ParallelismVerdict& v = r.verdict;
      INFO(fmt::format("{} seed {}: knee {} | units {} | interleave {}", profile.name, seed, v.queue_depth_knee.evidence,
                       v.parallel_units.evidence, v.interleave_bytes.evidence));
      ++cases;
      const auto units = profile.expected_parallel_units();
      const auto interleave = profile.expected_interleave();
      if (units) ++signal_cases;
      if (v.parallel_units.state == UnitState::found) {
        ++units_found;
        ++profile_units;
        const bool right = units && static_cast<uint32_t>(*v.parallel_units.value) == *units;
        if (!right) ++units_false;
        CHECK(right);
      }
      if (v.interleave_bytes.state == UnitState::found) {
        ++interleave_found;
        ++profile_interleaves;
        const bool right = interleave && static_cast<uint64_t>(*v.interleave_bytes.value) == *interleave;
        if (!right) ++interleave_false;
        CHECK(right);
      }
      if (v.queue_depth_knee.state == UnitState::found) {
        ++knee_found;
        ++profile_knees;
        // The truth over every depth, refinement included.
        const KneeTruth truth = knee_truth(profile, depths_run(v));
        const auto knee = static_cast<uint32_t>(*v.queue_depth_knee.value);
        INFO("model share of the plateau per depth:" << truth.curve);
        const bool right = std::find(truth.acceptable.begin(), truth.acceptable.end(), knee) != truth.acceptable.end();
        if (!right) ++knee_false;
        CHECK(right);
        REQUIRE(v.plateau_iops.state == UnitState::found);
        // The probe's plateau is the model's, within noise and the segment's
        // random unit draws.
        CHECK(*v.plateau_iops.value == Approx(truth.plateau).epsilon(0.08));
      }
      CHECK(r.elapsed_s <= 6.0 + 0.5);
    }
    table += fmt::format("  {:<16} knee {:>2}  units {:>2}  interleave {:>2}  of {}\n", profile.name, profile_knees,
                         profile_units, profile_interleaves, seeds);
  }
  fmt::print("parallelism over {} runs ({} with units to find): units found {} (false {}), interleave found {} "
             "(false {}), knee found {} (false {})\n{}",
             cases, signal_cases, units_found, units_false, interleave_found, interleave_false, knee_found, knee_false,
             table);
  CHECK(units_false == 0);
  CHECK(interleave_false == 0);
  CHECK(knee_false == 0);
}

// (The knee is not required here: with 8 units the model's IOPS at depth 32
// and 64 sit near 90 % of the plateau, and "not determined" is the honest
// answer on many seeds; the test above checks that a found knee is right.)
TEST_CASE("the profiles built for it recover their units and interleave on most seeds") {
  for (const char* name : {"channels-8x64k", "channels-4x16k", "nvme-tlc-16k"}) {
    const SimProfile& profile = *find_sim_profile(name);
    int both = 0;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const ParallelismVerdict v = probe(profile, seed).verdict;
      INFO(fmt::format("{} seed {}: {} | {}", name, seed, v.interleave_bytes.evidence, v.parallel_units.evidence));
      if (v.parallel_units.state == UnitState::found && v.interleave_bytes.state == UnitState::found) ++both;
    }
    CHECK(both >= 4);
  }
}

TEST_CASE("a drive where nothing serializes gets no units, no interleave and no knee") {
  const SimProfile& profile = *find_sim_profile("flat-dram");
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const ParallelismVerdict v = probe(profile, seed).verdict;
    INFO(v.parallel_units.evidence);
    CHECK(v.parallel_units.state == UnitState::undetermined);
    CHECK(v.interleave_bytes.state == UnitState::undetermined);
    // IOPS grow with every doubling of the queue up to 256: no knee below it.
    CHECK(v.queue_depth_knee.state == UnitState::undetermined);
    CHECK_FALSE(v.queue_depth_knee.value.has_value());
  }
}

TEST_CASE("the psync engine (one IO in flight) measures nothing, and says so") {
  SimDevice device(*find_sim_profile("nvme-tlc-16k"), 1, false);
  device.limit_to_one_in_flight();
  ParallelismPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.max_queue_depth = 1;
  const ParallelismProbeResult r = run_parallelism_probe(device, plan_parallelism(in), {});
  CHECK(r.verdict.queue_depth_knee.state == UnitState::not_measured);
  CHECK(r.verdict.parallel_units.state == UnitState::not_measured);
  CHECK(r.verdict.queue_depth_knee.evidence.find("one IO in flight") != std::string::npos);
  CHECK(r.ios == 0);
}

// A loaded host: a fifth of the IOs are seen late by an exponential delay of
// mean 300 us (about five lone reads), as when the CPU is busy elsewhere.
// Delays only ever add latency, and a pair is late when either read is (36 %
// of pairs here). Judged on pair medians, the point estimates stayed right
// but resamples flipped strides: units were found on 0 of 8 seeds and the
// interleave on 4 of 8 for channels-8x64k and nvme-tlc-16k. On their lower
// quartiles the verdicts stay right with high support; drives without the
// signal stay "not determined".
SimProfile loaded_host(const char* name) {
  SimProfile p = *find_sim_profile(name);
  p.host_delay_probability = 0.2;
  p.host_delay_us = 300.0;
  return p;
}

TEST_CASE("one-sided host delays leave the stride verdicts right and well supported") {
  for (const char* name : {"channels-8x64k", "channels-4x16k", "nvme-tlc-16k"}) {
    const SimProfile profile = loaded_host(name);
    int both = 0;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const ParallelismVerdict v = probe(profile, seed).verdict;
      INFO(fmt::format("{} seed {}: {} | {}", name, seed, v.interleave_bytes.evidence, v.parallel_units.evidence));
      if (v.interleave_bytes.state == UnitState::found) {
        CHECK(static_cast<uint64_t>(*v.interleave_bytes.value) == profile.interleave());
        CHECK(v.interleave_bytes.confidence >= 0.95);
      }
      if (v.parallel_units.state == UnitState::found) {
        CHECK(static_cast<uint32_t>(*v.parallel_units.value) == profile.parallel_units);
        CHECK(v.parallel_units.confidence >= 0.95);
        ++both;
      }
    }
    fmt::print("loaded host, {}: units and interleave found on {} of 8 seeds\n", name, both);
    CHECK(both >= 7);
  }
}

TEST_CASE("one-sided host delays give no stride verdict where there is no signal") {
  SimProfile serial = loaded_host("nvme-tlc-16k");
  serial.name = "one unit";
  serial.parallel_units = 1;  // every pair waits, whatever its stride
  for (const SimProfile& profile : {loaded_host("flat-dram"), serial}) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const ParallelismVerdict v = probe(profile, seed).verdict;
      INFO(fmt::format("{} seed {}: {} | {}", profile.name, seed, v.interleave_bytes.evidence, v.parallel_units.evidence));
      CHECK(v.interleave_bytes.state == UnitState::undetermined);
      CHECK(v.parallel_units.state == UnitState::undetermined);
    }
  }
}

// ---------------------------------------------------------------- writes
// With --write the same probe times writes, inside the write window only
// (run/write_phases.cc runs it between the window's save and its restore).

namespace {

// The write sweep as run/write_phases.cc runs it: over the default write
// window, three rounds.
ParallelismProbeResult write_probe(Device& device, const SimProfile& profile, uint64_t seed, const Region& window,
                                   uint64_t max_bytes = 384ull << 20) {
  ParallelismPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.logical_block = device.limits().logical_block;
  in.max_queue_depth = device.limits().max_queue_depth;
  in.region = window;
  in.read_page = profile.expected_read_page();
  ParallelismProbeOptions options;
  options.op = IoOp::write;
  options.rounds = 3;
  options.max_bytes = max_bytes;
  options.seed = seed;
  return run_parallelism_probe(device, plan_parallelism(in), options);
}

}  // namespace

TEST_CASE("the write sweep writes only inside its window, and a read-only device is refused") {
  const SimProfile& profile = *find_sim_profile("channels-8x64k");
  SimDevice sim(profile, 1, true);
  RecordingDevice device(sim);
  const Region window = default_write_window(sim.limits().size_bytes);
  const ParallelismProbeResult r = write_probe(device, profile, 1, window);
  uint64_t writes = 0, outside = 0, bytes = 0;
  for (const auto& io : device.requests) {
    if (io.op != IoOp::write) continue;
    ++writes;
    bytes += io.length;
    if (io.offset < window.offset || io.offset + io.length > window.offset + window.length) ++outside;
  }
  CHECK(writes == device.requests.size());  // nothing but writes: no read is mixed in
  CHECK(writes > 10000);
  CHECK(outside == 0);
  CHECK(bytes == r.bytes_issued);
  CHECK(bytes <= (384ull << 20));
  CHECK(device.max_in_flight == 256);
  // Writes spread over the window, not bunched at its start.
  uint64_t highest = 0;
  for (const auto& io : device.requests) highest = std::max(highest, io.offset);
  CHECK(highest > window.offset + window.length / 2);

  // A smaller cap stops it between rounds, below the cap.
  SimDevice capped_sim(profile, 1, true);
  RecordingDevice capped(capped_sim);
  const ParallelismProbeResult small = write_probe(capped, profile, 1, window, 64ull << 20);
  uint64_t capped_bytes = 0;
  for (const auto& io : capped.requests) capped_bytes += io.length;
  CHECK(capped_bytes <= (64ull << 20));
  CHECK(small.rounds < 3);

  // The same sweep on a device opened read-only: refused before any IO.
  SimDevice read_only(profile, 1, false);
  RecordingDevice none(read_only);
  try {
    write_probe(none, profile, 1, window);
    FAIL("a write sweep ran on a read-only device");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
  }
  CHECK(none.requests.empty());
}

TEST_CASE("write verdicts over every profile: found values are the truth") {
  int knees = 0, units = 0, interleaves = 0, runs = 0;
  // A drive that keeps few erase blocks open folds on most random writes:
  // no clean write signal, so it is held to the truth of what it finds but
  // left out of the share that must find a knee.
  int clean_runs = 0, clean_knees = 0;
  for (const auto& profile : sim_profiles()) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SimDevice device(profile, seed, true);
      // A cached drive is timed as a --write run times it: after the cache
      // probe ran the cache out (the truth below is the native model's).
      if (profile.slc_cache.bytes > 0) {
        SlcCacheOptions cache;
        cache.window = default_write_window(device.limits().size_bytes);
        cache.recovery_idle_s = 0.0;
        REQUIRE(run_slc_cache_probe(device, cache).first.drop);
      }
      const ParallelismProbeResult r =
          write_probe(device, profile, seed, default_write_window(device.limits().size_bytes));
      const ParallelismVerdict& v = r.verdict;
      ++runs;
      const bool clean = !profile.expected_open_units();
      clean_runs += clean;
      INFO(fmt::format("{} seed {}: knee {} | units {} | interleave {}", profile.name, seed, v.queue_depth_knee.evidence,
                       v.parallel_units.evidence, v.interleave_bytes.evidence));
      CHECK(v.op == IoOp::write);
      if (v.parallel_units.state == UnitState::found) {
        ++units;
        CHECK(profile.expected_parallel_units() == static_cast<uint32_t>(*v.parallel_units.value));
      }
      if (v.interleave_bytes.state == UnitState::found) {
        ++interleaves;
        CHECK(profile.expected_interleave() == static_cast<uint64_t>(*v.interleave_bytes.value));
      }
      if (v.queue_depth_knee.state == UnitState::found) {
        ++knees;
        clean_knees += clean;
        const KneeTruth truth = knee_truth(profile, depths_run(v), IoOp::write);
        INFO("model share of the plateau per depth:" << truth.curve);
        const auto knee = static_cast<uint32_t>(*v.queue_depth_knee.value);
        CHECK(std::find(truth.acceptable.begin(), truth.acceptable.end(), knee) != truth.acceptable.end());
        REQUIRE(v.plateau_iops.state == UnitState::found);
        CHECK(*v.plateau_iops.value == Approx(truth.plateau).epsilon(0.08));
      }
    }
  }
  fmt::print("write parallelism over {} runs: knee found {}, units found {}, interleave found {}\n", runs, knees,
             units, interleaves);
  // Three rounds are enough on the drives with a clean signal: most of
  // them find all three values.
  CHECK(clean_knees >= clean_runs * 3 / 4);
  CHECK(units >= 30);
}
