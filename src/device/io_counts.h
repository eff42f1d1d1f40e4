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

// `after - before`, each field at least 0 (a counter that went back, as when
// a loop device is detached and attached again, counts as nothing).
inline IoCounts io_counts_between(const IoCounts& before, const IoCounts& after) {
  const auto minus = [](uint64_t a, uint64_t b) { return a > b ? a - b : 0; };
  return {minus(after.reads, before.reads), minus(after.read_bytes, before.read_bytes),
          minus(after.writes, before.writes), minus(after.write_bytes, before.write_bytes)};
}

// How an io_uring engine's waits for a completion ended
// (device/completion_spin.h): the completion was already in the ring, it
// arrived while the engine polled, or the engine slept in the kernel until
// it came (after polling in vain, or without polling).
struct WaitCounts {
  uint64_t ready = 0, polled = 0, slept = 0;
};

inline WaitCounts wait_counts_between(const WaitCounts& before, const WaitCounts& after) {
  const auto minus = [](uint64_t a, uint64_t b) { return a > b ? a - b : 0; };
  return {minus(after.ready, before.ready), minus(after.polled, before.polled), minus(after.slept, before.slept)};
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
