// ssdprobe-engine-ceiling: the engine's own ceiling. The runner the probes
// use drives the io_uring engine with no device behind it (every request an
// IORING_OP_NOP, completed by the kernel at once: UringDevice::
// without_device), so IOPS and CPU per IO are what the engine and runner
// themselves cost. bench/engine_ceiling runs it at several queue depths
// beside fio's null engine and prints the table.
//
// usage: ssdprobe-engine-ceiling IOS QUEUE_DEPTH [SPIN_US=200]
// Prints one JSON line: IOPS, and CPU time (user + system, this process)
// per IO in nanoseconds.
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/cpu_time.h"
#include "core/error.h"
#include "core/units.h"
#include "device/uring_device.h"
#include "runner/runner.h"

using namespace ssdprobe;

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: {} IOS QUEUE_DEPTH [SPIN_US=200]\n", argv[0]);
    return 2;
  }
  try {
    const uint64_t ios = parse_size(argv[1], "IO count");
    const uint64_t queue_depth = parse_size(argv[2], "queue depth");
    const uint64_t spin_us = parse_size(argc > 3 ? argv[3] : "200", "spin");
    constexpr uint32_t kRequestBytes = 4096;
    constexpr uint64_t kSizeBytes = 1ull << 30;  // the offsets the plan names; nothing is read
    DeviceLimits limits;
    limits.size_bytes = kSizeBytes;
    const auto device = UringDevice::without_device(limits);
    device->set_completion_spin(static_cast<uint32_t>(spin_us));
    ProbeRunner runner(*device, static_cast<uint32_t>(queue_depth), kRequestBytes);
    std::vector<PlannedIo> plan(ios);
    for (uint64_t i = 0; i < ios; ++i) plan[i] = {IoOp::read, (i * kRequestBytes) % kSizeBytes, kRequestBytes};
    runner.run(std::span(plan).first(std::min<size_t>(1024, plan.size())));  // warm-up
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    const std::vector<double> latency = runner.run(plan);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = process_cpu_seconds() - cpu_start;
    nlohmann::ordered_json out = {{"tool", "ssdprobe"},
                                  {"engine", device->engine_description()},
                                  {"ios", ios},
                                  {"queue_depth", queue_depth},
                                  {"iops", static_cast<double>(ios) / seconds},
                                  {"cpu_ns_per_io", cpu * 1e9 / static_cast<double>(ios)},
                                  {"cpu_share", cpu / seconds}};
    fmt::print("{}\n", out.dump());
    return 0;
  } catch (const Error& e) {
    fmt::print(stderr, "ssdprobe-engine-ceiling: {}\n", e.what());
    return exit_code_for(e.category());
  }
}
