// Counts of IO in the kernel's terms (Documentation/block/stat.rst): requests
// and bytes, read and written. The engine's own count (counting_device.h)
// and a block device's counters (block_stat.h) are both this, so the IO
// someone else did on the disk during a phase is one subtraction.
#pragma once

#include <algorithm>
#include <cstdint>

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

// How an io_uring engine's waits for a completion ended
// (device/completion_spin.h): the completion was already in the ring, it
// arrived while the engine polled, or the engine slept in the kernel until
// it came (after polling in vain, or without polling).
struct WaitCounts {
  uint64_t ready = 0, polled = 0, slept = 0;
};

inline WaitCounts wait_counts_between(const WaitCounts& before, const WaitCounts& after) {
  return {counter_delta(before.ready, after.ready), counter_delta(before.polled, after.polled),
          counter_delta(before.slept, after.slept)};
}

// "polled" or "asleep" when at most 5 % of the waits that had to wait went
// the other way, "mixed" otherwise; null when none had to wait.
inline const char* waited_name(const WaitCounts& waits) {
  const uint64_t waited = waits.polled + waits.slept;
  if (waited == 0) return nullptr;
  if (waits.slept * 20 <= waited) return "polled";
  if (waits.polled * 20 <= waited) return "asleep";
  return "mixed";
}

}  // namespace ssdprobe
