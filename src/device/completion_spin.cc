#include "device/completion_spin.h"

#include <algorithm>
#include <fmt/format.h>
#include <liburing.h>

#include "device/psync_device.h"  // monotonic_raw_ns
#include "device/uring_wait.h"

namespace ssdprobe {

io_uring_cqe* CompletionSpin::wait(io_uring& ring, unsigned in_kernel, const char* what) {
  if (io_uring_cqe* cqe = ready_completion(ring)) return cqe;
  const bool poll = limit_ns_ > 0 && in_kernel <= kMaxInFlight && typical_wait_ns_ <= limit_ns_;
  const uint64_t start = monotonic_raw_ns();
  io_uring_cqe* found = nullptr;
  if (poll) {
    const uint64_t deadline = start + limit_ns_;
    do {
      // With deferred task work a finished request reaches the ring only
      // inside an io_uring_enter that asks for events; this one does not wait.
      io_uring_get_events(&ring);
      found = ready_completion(ring);
    } while (found == nullptr && monotonic_raw_ns() < deadline);
  }
  if (found == nullptr) found = wait_for_completion(ring, what);
  // Moving average over ~16 waits: slow drives stop polling, and a drive
  // that speeds up is polled again. A wait counts as at most twice the
  // limit, so one stall (garbage collection: tens of ms) cannot switch
  // polling off for the next ~85 waits; only a run of slow waits does.
  const uint64_t took = std::min(monotonic_raw_ns() - start, 2 * std::max<uint64_t>(limit_ns_, 1));
  typical_wait_ns_ = typical_wait_ns_ - typical_wait_ns_ / 16 + took / 16;
  return found;
}

io_uring_cqe* submit_then_wait(io_uring& ring, unsigned& queued, unsigned& in_kernel, CompletionSpin& spin,
                               const char* submit_what, const char* wait_what) {
  if (queued > 0) {
    queued = 0;
    submit_queued(ring, in_kernel, submit_what);
  }
  return spin.wait(ring, in_kernel, wait_what);
}

std::string spin_description(const CompletionSpin& spin) {
  return spin.limit_us() == 0 ? "completions waited for asleep"
                              : fmt::format("completions polled up to {} us at queue depths up to {}", spin.limit_us(),
                                            CompletionSpin::kMaxInFlight);
}

}  // namespace ssdprobe
