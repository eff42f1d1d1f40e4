// The SLC cache probe: after the drive has idled, write the write window
// sequentially in large writes, over and over (the window is saved and put
// back like every write probe's), until the write speed drops and stays
// down (analysis/throughput_drop.h), the byte cap, or the budget. The bytes
// written before the drop are the cache that was free. A second fill after
// another idle shows how much of it the drive emptied in that time.
//
// Rewriting the same window consumes cache exactly as new data does: the
// drive cannot know the data is the same, so nothing outside the window is
// ever written and nothing is lost.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/throughput_drop.h"
#include "core/units.h"
#include "device/device.h"

namespace ssdprobe {

constexpr uint64_t kDefaultCacheCapBytes = 16ull << 30;

struct SlcCacheOptions {
  Region window;                    // exact byte range to write (inside the journaled range)
  uint64_t cap_bytes = kDefaultCacheCapBytes;  // most the probe writes, both fills
  // When > 0: the first fill also ends once it has written this much at a
  // flat speed (not even a step the looser rule of analysis/throughput_drop.h
  // accepts). A step seen keeps it going to cap_bytes, where a drop can be
  // confirmed. run/write_bound.h: slc_flat_stop.
  uint64_t flat_stop_bytes = 0;
  uint64_t io_bytes = 1 << 20;      // write size (cut to the device's largest transfer)
  double idle_s = 1.0;              // before the first fill
  double recovery_idle_s = 5.0;     // before the second fill (0: no second fill)
  double budget_s = 60.0;           // both fills and idles, device time (must be > 0)
  uint64_t seed = 1;
  // Every batch of writes: the fill (1, or 2 after idling) and the bytes it wrote.
  std::function<void(int fill, uint64_t written, uint64_t cap)> progress;
};

// What ended a fill: its cap, --budget, a drop two looks in a row confirmed,
// or a flat speed past SlcCacheOptions::flat_stop_bytes. A drop the whole
// fill shows only once the cap or the budget ended it is still `drop`'s
// finding, but not what ended it.
enum class FillEnd { cap, budget, drop, flat_speed };

// One fill from an idle drive.
struct CacheFill {
  double idle_s = 0.0;              // how long the drive idled before it
  uint64_t io_bytes = 0;
  uint64_t cap_bytes = 0;
  std::vector<double> latency_us;   // every write, in order
  std::optional<ThroughputDrop> drop;
  FillEnd end = FillEnd::cap;
  bool cut_by_budget() const { return end == FillEnd::budget; }
  uint64_t written_bytes() const { return latency_us.size() * io_bytes; }
  uint64_t bytes_before_drop() const { return drop ? drop->index * io_bytes : 0; }
};

struct SlcCacheResult {
  CacheFill first;
  std::optional<CacheFill> recovery;  // the second fill, when the first found a drop and time was left
  uint64_t bytes_written = 0;
  double elapsed_s = 0.0;             // idles included
};

SlcCacheResult run_slc_cache_probe(Device& device, const SlcCacheOptions& options);

}  // namespace ssdprobe
