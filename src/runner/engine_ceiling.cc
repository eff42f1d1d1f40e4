#include "runner/engine_ceiling.h"

#include <algorithm>
#include <vector>

#include "core/cpu_time.h"
#include "core/error.h"
#include "device/uring_device.h"
#include "runner/runner.h"

namespace ssdprobe {

std::optional<EngineCeiling> measure_engine_ceiling(uint32_t queue_depth, uint64_t ios, uint32_t spin_us,
                                                    uint32_t request_bytes) {
  constexpr uint64_t kSizeBytes = 1ull << 30;  // the offsets the plan names; nothing is read
  DeviceLimits limits;
  limits.size_bytes = kSizeBytes;
  std::unique_ptr<UringDevice> device;
  try {
    device = UringDevice::without_device(limits, std::max<uint32_t>(queue_depth, 256));
  } catch (const Error& e) {
    if (e.category() == ErrorCategory::unsupported) return std::nullopt;
    throw;
  }
  device->set_completion_spin(spin_us);
  ProbeRunner runner(*device, queue_depth, request_bytes);
  std::vector<PlannedIo> plan(ios);
  for (uint64_t i = 0; i < ios; ++i) plan[i] = {IoOp::read, (i * request_bytes) % kSizeBytes, request_bytes};
  runner.run(std::span(plan).first(std::min<size_t>(1024, plan.size())));  // warm-up
  const CpuStopwatch host;
  runner.run(plan);
  const double seconds = host.wall_s();
  const double cpu = host.cpu_s();
  EngineCeiling ceiling;
  ceiling.queue_depth = queue_depth;
  ceiling.ios = ios;
  ceiling.iops = seconds > 0 ? static_cast<double>(ios) / seconds : 0.0;
  ceiling.cpu_ns_per_io = ios > 0 ? cpu * 1e9 / static_cast<double>(ios) : 0.0;
  ceiling.cpu_share = seconds > 0 ? cpu / seconds : 0.0;
  ceiling.engine = device->engine_description();
  return ceiling;
}

}  // namespace ssdprobe
