#include "core/cpu_time.h"

#include <sys/resource.h>

#include <fstream>

namespace ssdprobe {

double process_cpu_seconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::optional<double> thread_runqueue_wait_seconds() {
  std::ifstream in("/proc/thread-self/schedstat");
  unsigned long long on_cpu_ns = 0, waiting_ns = 0;
  // A thread that is running has been on a CPU: zeros mean the kernel
  // keeps no such counts.
  if (!(in >> on_cpu_ns >> waiting_ns) || on_cpu_ns == 0) return std::nullopt;
  return static_cast<double>(waiting_ns) / 1e9;
}

double CpuStopwatch::wall_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
}

double CpuStopwatch::busy_share() const {
  const double wall = wall_s();
  return wall > 0.0 ? cpu_s() / wall : 0.0;
}

std::optional<double> CpuStopwatch::waited_share() const {
  const std::optional<double> now = thread_runqueue_wait_seconds();
  const double wall = wall_s();
  if (!waited_start_ || !now || wall <= 0.0) return std::nullopt;
  return (*now - *waited_start_) / wall;
}

}  // namespace ssdprobe
