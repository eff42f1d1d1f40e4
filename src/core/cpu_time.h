// CPU time this process has used (user + system, all its threads): what a
// phase or a benchmark costs the host, beside the wall and device time.
#pragma once

namespace ssdprobe {

// Seconds of CPU since the process started (getrusage RUSAGE_SELF; the
// kernel accounts in ticks or better, microseconds in the result).
double process_cpu_seconds();

}  // namespace ssdprobe
