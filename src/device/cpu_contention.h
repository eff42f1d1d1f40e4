// Whether polling for a completion would take a CPU from other work. The
// engine polls at shallow queues (device/completion_spin.h): a core kept
// busy, which is free on an idle host but taken from someone else's work
// on a busy one. The kernel's count of runnable tasks (/proc/loadavg, the
// first number of its fourth field: tasks running or waiting to run right
// now, the reader included) says which: when the other runnable tasks
// fill every online CPU, a poller is one too many and the engine sleeps
// instead, as fio does. Read at most every kRecheckNs, so the cost stays
// out of the timed path (one small read per 10 ms).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ssdprobe {

class CpuContention {
 public:
  static constexpr uint64_t kRecheckNs = 10'000'000;
  // `loadavg`: the file to read (tests give their own); `cpus`: online
  // CPUs, 0 for the host's.
  explicit CpuContention(std::string loadavg = "/proc/loadavg", unsigned cpus = 0);
  // True when, at the last reading (at most kRecheckNs before `now_ns`),
  // the runnable tasks other than this one filled every CPU. False when
  // the file cannot be read: polling then goes on as configured.
  bool others_fill_cpus(uint64_t now_ns);

 private:
  std::string path_;
  unsigned cpus_;
  bool readable_ = true;
  bool full_ = false;
  std::optional<uint64_t> checked_ns_;
};

// The runnable tasks /proc/loadavg counts ("0.52 0.58 0.59 3/467 12345"
// gives 3); none when the text is not in that form.
std::optional<unsigned> parse_runnable_tasks(std::string_view loadavg);

}  // namespace ssdprobe
