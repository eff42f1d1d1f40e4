// slc_cache.h: the bookkeeping of emudrive's SLC write cache (--slc-cache).
//
// A consumer SSD first programs writes into a region of its flash run as SLC
// (one bit per cell): fast, until that region is full; then writes go to the
// native cells at native speed. While the drive is idle the firmware folds
// the SLC region into native cells and the cache becomes free again.
//
// This class only counts bytes and idle time; what a write costs in and out
// of the cache is emudrive's latency model (emudrive.cc, LatencyModel):
//  - free bytes start at the capacity; every byte a write brings in takes one
//    while any are free (rewriting the same bytes takes them again: the cache
//    is a log, not a map). A write larger than what is free is split: its
//    head goes to the cache, the rest is native.
//  - the drive is idle while no request (read or write) is being served:
//    from the end of the last one in service to the arrival of the next, by
//    CLOCK_MONOTONIC. At each arrival after an idle spell the cache gets back
//    recover_bytes_per_s * (idle - idle_delay_us), up to its capacity: as a
//    drive's firmware starts folding only once it has been idle for a while,
//    a spell shorter than the delay refills nothing.
//  - why a delay (20 ms by default): the time between two requests is idle
//    time, also when the host is only slow to send the next one. Measured
//    with fio (sequential 1 MiB O_DIRECT writes, QD1) on 2 vCPUs busy with
//    two compilers: of 1,120 gaps while writing, 685 were under 0.2 ms (the
//    kernel and FUSE between back-to-back requests), 337 up to 2 ms, 77 up
//    to 5 ms, 20 up to 20 ms (scheduler ticks) and 1 longer. Without the
//    delay such a writer refills the cache while it writes; with it, only
//    real idling does, minus 20 ms per idle spell.
//
// emudrive's garbage-collection pool (--gc-pool) is the same bookkeeping:
// pre-erased free space that native writes take and idle time gives back,
// starting at `initial_free` rather than full on a drive written to the
// end before (what a write costs without free space is emudrive's).
//
// Not thread-safe: the caller holds the model's lock (with --units several
// requests are in service at once, and the drive is idle only when none is).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace emudrive {

struct SlcOptions {
  uint64_t capacity = 0;            // bytes; 0 = no cache
  double recover_bytes_per_s = 0;   // refill rate while idle; 0 = never refills
  double idle_delay_us = 20000;     // of each idle spell, the part that refills nothing
  std::optional<uint64_t> initial_free;  // free bytes at start; none: the capacity
};

// What the cache did for one request, for the trace.
struct SlcEvent {
  double idle_us = 0;        // idle time before this request (0: others in service)
  uint64_t refilled = 0;     // bytes freed by that idle time
  uint64_t absorbed = 0;     // bytes of this write the cache took
  uint64_t free_after = 0;   // free bytes after this request was accounted
};

class SlcCache {
 public:
  SlcCache(const SlcOptions& options, int64_t now_ns);

  bool enabled() const { return options_.capacity > 0; }

  // A request arrives: refills for the idle spell that it ends, if any.
  SlcEvent request_started(int64_t now_ns);
  // A request's service ends: the drive may become idle from now_ns.
  void request_finished(int64_t now_ns);
  // Of a write of len bytes, the bytes the cache takes (a head of it).
  uint64_t absorb(uint64_t len);

  uint64_t free_bytes() const { return static_cast<uint64_t>(free_); }
  uint64_t absorbed_total() const { return absorbed_total_; }
  uint64_t native_total() const { return native_total_; }

 private:
  uint64_t refill_for_idle(int64_t idle_ns);

  SlcOptions options_;
  double free_;                 // fractional: refills accumulate below 1 B
  unsigned in_service_ = 0;
  int64_t idle_since_ns_;
  uint64_t absorbed_total_ = 0;
  uint64_t native_total_ = 0;
};

// " slc_in=N slc_free=N slc_idle_us=X slc_refilled=N" (no slc_in for a
// read), appended to a --trace line when the cache is on.
std::string trace_note(const SlcEvent& event, bool is_write);

}  // namespace emudrive
