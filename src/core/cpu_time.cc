#include "core/cpu_time.h"

#include <sys/resource.h>

namespace ssdprobe {

double process_cpu_seconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double CpuStopwatch::wall_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
}

double CpuStopwatch::busy_share() const {
  const double wall = wall_s();
  return wall > 0.0 ? cpu_s() / wall : 0.0;
}

}  // namespace ssdprobe
