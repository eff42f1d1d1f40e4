// ssdprobe-cell-bench: times one grid cell (a read size at an offset inside
// each slot) through ssdprobe's own engine and runner, the way the read probe
// does, and prints its latency statistics and IOPS as one JSON line. bench/run
// runs fio on the same cell beside it, so the two can be compared.
//
// usage: ssdprobe-cell-bench TARGET SIZE OFFSET IOS [ENGINE] [SLOT_BYTES] [QUEUE_DEPTH] [SPIN_US]
// (SPIN_US: how long the engine polls for a completion before it sleeps,
// ssdprobe's --spin-us; default the same 200.)
#include <cstdio>
#include <optional>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/latency_grid.h"
#include "analysis/stats.h"
#include "core/cpu_time.h"
#include "core/error.h"
#include "core/random.h"
#include "core/units.h"
#include "device/io_counts.h"
#include "device/target.h"
#include "firmware/nvme_passthru_open.h"
#include "runner/runner.h"

using namespace ssdprobe;

int main(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "usage: {} TARGET SIZE OFFSET IOS [ENGINE=uring] [SLOT_BYTES=384k] [QUEUE_DEPTH=1] [SPIN_US=200]\n",
               argv[0]);
    return 2;
  }
  try {
    const uint64_t size = parse_size(argv[2], "size");
    const uint64_t offset = parse_size(argv[3], "offset");
    const uint64_t ios = parse_size(argv[4], "IO count");
    const EngineChoice engine = parse_engine(argc > 5 ? argv[5] : "uring");
    const uint64_t slot = parse_size(argc > 6 ? argv[6] : "384k", "slot");
    const uint64_t queue_depth = parse_size(argc > 7 ? argv[7] : "1", "queue depth");
    const uint64_t spin_us = parse_size(argc > 8 ? argv[8] : "200", "spin");
    Target target = open_target({.path = argv[1], .open_for_io = true, .engine = engine},
                                nvme_passthru_opener());
    target.device->set_completion_spin(static_cast<uint32_t>(spin_us));
    const uint64_t slots = target.device->limits().size_bytes / slot;
    ProbeRunner runner(*target.device, static_cast<uint32_t>(queue_depth), static_cast<uint32_t>(size));
    Random random(1);
    std::vector<PlannedIo> plan(ios);
    for (auto& io : plan) io = {IoOp::read, random.below(slots) * slot + offset, static_cast<uint32_t>(size)};
    runner.run(std::span(plan).first(std::min<size_t>(64, plan.size())));  // warm-up, as the probe does
    const std::optional<WaitCounts> waits_before = target.device->wait_counts();
    const CpuStopwatch host;
    const std::vector<double> latency = runner.run(plan);
    const double seconds = host.wall_s();
    const double cpu_ns_per_io = host.cpu_s() * 1e9 / static_cast<double>(ios);
    const CellSummary s = summarize_cell(latency);
    double sum_us = 0.0;
    for (double l : latency) sum_us += l;
    nlohmann::ordered_json out = {{"tool", "ssdprobe"},        {"engine", target.device->engine_description()},
                          {"ios", ios},                {"queue_depth", queue_depth},
                          {"median_us", s.median_us},
                          {"mean_us", latency.empty() ? 0.0 : sum_us / static_cast<double>(latency.size())},
                          {"p99_us", s.p99_us},        {"iops", static_cast<double>(ios) / seconds},
                          {"cpu_ns_per_io", cpu_ns_per_io}};
    // The shape, not only the middle: two engines' medians can differ
    // while their distributions cross (docs/engine.md, next to fio).
    for (const int p : {10, 25, 75, 90}) out[fmt::format("p{}_us", p)] = quantile(latency, p / 100.0);
    // How the engine waited: a completion already there, polled for, or
    // slept for (each sleep is a wake-up someone else pays for).
    if (waits_before) {
      const WaitCounts w = wait_counts_between(*waits_before, *target.device->wait_counts());
      out["waits"] = {{"ready", w.ready}, {"polled", w.polled}, {"slept", w.slept()}};
      for (const SleepReason reason : kSleepReasons) out["waits"][sleep_reason_name(reason)] = w.slept_for(reason);
    }
    fmt::print("{}\n", out.dump());
    return 0;
  } catch (const Error& e) {
    fmt::print(stderr, "ssdprobe-cell-bench: {}\n", e.what());
    return exit_code_for(e.category());
  }
}
