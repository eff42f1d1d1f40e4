// CPU time this process has used (user + system, all its threads): what a
// phase or a benchmark costs the host, beside the wall and device time.
#pragma once

#include <chrono>
#include <optional>

namespace ssdprobe {

// Seconds of CPU since the process started (getrusage RUSAGE_SELF; the
// kernel accounts in ticks or better, microseconds in the result).
double process_cpu_seconds();

// Seconds the calling thread has spent runnable but waiting for a CPU
// (/proc/thread-self/schedstat, its second field); none where the kernel
// does not keep it (no CONFIG_SCHED_INFO).
std::optional<double> thread_runqueue_wait_seconds();

// What the process cost the host since the stopwatch was made: the wall
// time, its CPU time (every thread), and how busy that kept the host (CPU
// over wall: 1.0 is one CPU busy throughout; more with several threads).
class CpuStopwatch {
 public:
  CpuStopwatch()
      : cpu_start_(process_cpu_seconds()),
        waited_start_(thread_runqueue_wait_seconds()),
        wall_start_(std::chrono::steady_clock::now()) {}
  double wall_s() const;
  double cpu_s() const { return process_cpu_seconds() - cpu_start_; }
  double busy_share() const;
  // The share of the wall time the thread that made the stopwatch (read on
  // the same thread) spent waiting for a CPU while it had work: other work
  // held the cores. None where the kernel keeps no such count.
  std::optional<double> waited_share() const;

 private:
  double cpu_start_;
  std::optional<double> waited_start_;
  std::chrono::steady_clock::time_point wall_start_;
};

}  // namespace ssdprobe
