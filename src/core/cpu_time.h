// CPU time this process has used (user + system, all its threads): what a
// phase or a benchmark costs the host, beside the wall and device time.
#pragma once

#include <chrono>

namespace ssdprobe {

// Seconds of CPU since the process started (getrusage RUSAGE_SELF; the
// kernel accounts in ticks or better, microseconds in the result).
double process_cpu_seconds();

// How busy the process kept the host since it was made: its CPU time over
// the wall time (1.0 is one CPU busy throughout; more with several threads).
class BusyShare {
 public:
  BusyShare() : cpu_start_(process_cpu_seconds()), wall_start_(std::chrono::steady_clock::now()) {}
  double share() const;

 private:
  double cpu_start_;
  std::chrono::steady_clock::time_point wall_start_;
};

}  // namespace ssdprobe
