// The engine's own ceiling on this host: the runner driving the io_uring
// engine with no device behind it (every request an IORING_OP_NOP the
// kernel completes at once: UringDevice::without_device), so the IOPS it
// reaches and the CPU each request costs are the engine's and the runner's
// alone. The parallelism probe compares a drive's plateau with it (a
// plateau near the ceiling is the host's, not the drive's), and
// bench/engine_ceiling prints it beside fio's null engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ssdprobe {

struct EngineCeiling {
  uint32_t queue_depth = 1;
  uint64_t ios = 0;
  double iops = 0.0;
  double cpu_ns_per_io = 0.0;  // user + system CPU of the whole process per request
  double cpu_share = 0.0;      // CPU time over wall time: 1.0 is one core kept busy
  std::string engine;          // the engine line of the NOP ring, as a report prints it
};

// Times `ios` NOPs at `queue_depth` (after a warm-up of up to 1,024), each
// request `request_bytes` long as the runner plans it, waiting for
// completions as `spin_us` says (--spin-us). None when io_uring is not
// available. Other processes' load on the host lowers it, as it lowers
// what the engine can do for a drive at that moment: measure it beside
// what it is compared with.
std::optional<EngineCeiling> measure_engine_ceiling(uint32_t queue_depth, uint64_t ios, uint32_t spin_us,
                                                    uint32_t request_bytes = 4096);

}  // namespace ssdprobe
