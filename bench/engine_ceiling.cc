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
#include <cstdio>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/units.h"
#include "runner/engine_ceiling.h"

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
    const auto ceiling =
        measure_engine_ceiling(static_cast<uint32_t>(queue_depth), ios, static_cast<uint32_t>(spin_us));
    if (!ceiling) {
      fmt::print(stderr, "ssdprobe-engine-ceiling: io_uring is not available\n");
      return 5;
    }
    nlohmann::ordered_json out = {{"tool", "ssdprobe"},
                                  {"engine", ceiling->engine},
                                  {"ios", ios},
                                  {"queue_depth", queue_depth},
                                  {"iops", ceiling->iops},
                                  {"cpu_ns_per_io", ceiling->cpu_ns_per_io},
                                  {"cpu_share", ceiling->cpu_share}};
    fmt::print("{}\n", out.dump());
    return 0;
  } catch (const Error& e) {
    fmt::print(stderr, "ssdprobe-engine-ceiling: {}\n", e.what());
    return exit_code_for(e.category());
  }
}
