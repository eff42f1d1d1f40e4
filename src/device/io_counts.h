// Counts of IO in the kernel's terms (Documentation/block/stat.rst): requests
// and bytes, read and written. The engine's own count (counting_device.h)
// and a block device's counters (block_stat.h) are both this, so the IO
// someone else did on the disk during a phase is one subtraction.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace ssdprobe {

struct IoCounts {
  uint64_t reads = 0, read_bytes = 0, writes = 0, write_bytes = 0;

  uint64_t bytes() const { return read_bytes + write_bytes; }
};

// `after - before` of one counter, at least 0 (a counter that went back, as
// when a loop device is detached and attached again, counts as nothing).
inline uint64_t counter_delta(uint64_t before, uint64_t after) { return after > before ? after - before : 0; }

// `after - before`, field by field (counter_delta).
inline IoCounts io_counts_between(const IoCounts& before, const IoCounts& after) {
  return {counter_delta(before.reads, after.reads), counter_delta(before.read_bytes, after.read_bytes),
          counter_delta(before.writes, after.writes), counter_delta(before.write_bytes, after.write_bytes)};
}

// Why the engine slept for a completion instead of polling for it
// (device/completion_spin.h): polling is off (--spin-us 0), more requests
// were out than it polls for, the recent waits ran past the limit (a slow
// device), other runnable work filled the host's CPUs, or it polled for
// the whole limit in vain.
enum class SleepReason { spin_off, deep_queue, slow_device, cpus_busy, timed_out };
inline constexpr SleepReason kSleepReasons[] = {SleepReason::spin_off, SleepReason::deep_queue,
                                                SleepReason::slow_device, SleepReason::cpus_busy,
                                                SleepReason::timed_out};

// The reason's name in the result document (phases[].waits.asleep_because).
inline const char* sleep_reason_name(SleepReason reason) {
  switch (reason) {
    case SleepReason::spin_off: return "spin_off";
    case SleepReason::deep_queue: return "deep_queue";
    case SleepReason::slow_device: return "slow_device";
    case SleepReason::cpus_busy: return "cpus_busy";
    case SleepReason::timed_out: return "timed_out";
  }
  return "";
}

// How an io_uring engine's waits for a completion ended
// (device/completion_spin.h): the completion was already in the ring, it
// arrived while the engine polled, or the engine slept in the kernel until
// it came (after polling in vain, or without polling), each sleep counted
// under its reason.
struct WaitCounts {
  uint64_t ready = 0, polled = 0;
  std::array<uint64_t, std::size(kSleepReasons)> slept_because{};

  void count_sleep(SleepReason reason) { ++slept_because[static_cast<size_t>(reason)]; }
  uint64_t slept_for(SleepReason reason) const { return slept_because[static_cast<size_t>(reason)]; }
  uint64_t slept() const {
    uint64_t all = 0;
    for (const uint64_t n : slept_because) all += n;
    return all;
  }
};

inline WaitCounts wait_counts_between(const WaitCounts& before, const WaitCounts& after) {
  WaitCounts d{counter_delta(before.ready, after.ready), counter_delta(before.polled, after.polled), {}};
  for (size_t i = 0; i < d.slept_because.size(); ++i) {
    d.slept_because[i] = counter_delta(before.slept_because[i], after.slept_because[i]);
  }
  return d;
}

inline void add_waits(WaitCounts& into, const WaitCounts& more) {
  into.ready += more.ready;
  into.polled += more.polled;
  for (size_t i = 0; i < into.slept_because.size(); ++i) into.slept_because[i] += more.slept_because[i];
}

// "polled" or "asleep" when at most 5 % of the waits that had to wait went
// the other way, "mixed" otherwise; null when none had to wait.
inline const char* waited_name(const WaitCounts& waits) {
  const uint64_t slept = waits.slept();
  const uint64_t waited = waits.polled + slept;
  if (waited == 0) return nullptr;
  if (slept * 20 <= waited) return "polled";
  if (waits.polled * 20 <= waited) return "asleep";
  return "mixed";
}

}  // namespace ssdprobe
