// slc_cache.cc: see slc_cache.h.
#include "slc_cache.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace emudrive {

SlcCache::SlcCache(const SlcOptions& options, int64_t now_ns)
    : options_(options),
      free_(static_cast<double>(std::min(options.initial_free.value_or(options.capacity), options.capacity))),
      idle_since_ns_(now_ns) {}

SlcEvent SlcCache::request_started(int64_t now_ns) {
  SlcEvent event;
  if (in_service_++ == 0) {
    const int64_t idle_ns = std::max<int64_t>(0, now_ns - idle_since_ns_);
    event.idle_us = static_cast<double>(idle_ns) / 1e3;
    event.refilled = refill_for_idle(idle_ns);
  }
  event.free_after = free_bytes();
  return event;
}

void SlcCache::request_finished(int64_t now_ns) {
  if (in_service_ > 0 && --in_service_ == 0) idle_since_ns_ = now_ns;
}

uint64_t SlcCache::absorb(uint64_t len) {
  const uint64_t taken = std::min(len, free_bytes());
  free_ -= static_cast<double>(taken);
  absorbed_total_ += taken;
  native_total_ += len - taken;
  return taken;
}

// Frees recover_bytes_per_s for every second of idle_ns past the idle delay,
// up to the capacity; returns the whole bytes that became free.
uint64_t SlcCache::refill_for_idle(int64_t idle_ns) {
  const double counted_s = static_cast<double>(idle_ns) / 1e9 - options_.idle_delay_us / 1e6;
  if (counted_s <= 0 || options_.recover_bytes_per_s <= 0) return 0;
  const uint64_t before = free_bytes();
  free_ = std::min(static_cast<double>(options_.capacity), free_ + counted_s * options_.recover_bytes_per_s);
  return free_bytes() - before;
}

std::string trace_note(const SlcEvent& event, bool is_write) {
  char text[160];
  std::string in;
  if (is_write) in = " slc_in=" + std::to_string(event.absorbed);
  std::snprintf(text, sizeof text, " slc_free=%" PRIu64 " slc_idle_us=%.1f slc_refilled=%" PRIu64, event.free_after,
                event.idle_us, event.refilled);
  return in + text;
}

}  // namespace emudrive
