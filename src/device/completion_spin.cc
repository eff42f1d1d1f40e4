#include "device/completion_spin.h"

#include <algorithm>
#include <fmt/format.h>
#include <liburing.h>

#include "core/error.h"
#include "device/psync_device.h"  // monotonic_raw_ns
#include "device/uring_wait.h"

namespace ssdprobe {

std::optional<SleepReason> reason_not_to_poll(unsigned in_kernel, uint64_t typical_wait_ns, uint64_t limit_ns,
                                              CpuContention& contention, uint64_t now_ns) {
  if (in_kernel > CompletionSpin::kMaxInFlight) return SleepReason::deep_queue;
  if (typical_wait_ns > limit_ns) return SleepReason::slow_device;
  if (contention.others_fill_cpus(now_ns)) return SleepReason::cpus_busy;
  return std::nullopt;
}

io_uring_cqe* CompletionSpin::wait(io_uring& ring, unsigned in_kernel, const char* what) {
  if (io_uring_cqe* cqe = ready_completion(ring)) {
    ++counts_.ready;
    return cqe;
  }
  if (limit_ns_ == 0) {  // --spin-us 0: no polling, nothing to average
    counts_.count_sleep(SleepReason::spin_off);
    return wait_for_completion(ring, what);
  }
  const uint64_t start = monotonic_raw_ns();
  const std::optional<SleepReason> no_poll = reason_not_to_poll(in_kernel, typical_wait_ns_, limit_ns_,
                                                                contention_, start);
  io_uring_cqe* found = nullptr;
  if (!no_poll) {
    const uint64_t deadline = start + limit_ns_;
    do {
      // With deferred task work a finished request reaches the ring only
      // inside an io_uring_enter that asks for events; this one does not wait.
      io_uring_get_events(&ring);
      found = ready_completion(ring);
    } while (found == nullptr && monotonic_raw_ns() < deadline);
  }
  if (found != nullptr) {
    ++counts_.polled;
  } else {
    counts_.count_sleep(no_poll.value_or(SleepReason::timed_out));
    found = wait_for_completion(ring, what);
  }
  // Moving average over ~16 waits: slow drives stop polling, and a drive
  // that speeds up is polled again. A wait counts as at most twice the
  // limit, so one stall (garbage collection: tens of ms) cannot switch
  // polling off for the next ~85 waits; only a run of slow waits does.
  const uint64_t took = std::min(monotonic_raw_ns() - start, 2 * limit_ns_);
  typical_wait_ns_ = typical_wait_ns_ - typical_wait_ns_ / 16 + took / 16;
  return found;
}

void RingRequests::check_usable(const char* engine) const {
  if (abandoned_) throw Error(ErrorCategory::internal, fmt::format("IO submitted after the {} engine failed", engine));
}

io_uring_cqe* RingRequests::submit_then_wait(io_uring& ring, const char* submit_what, const char* wait_what) {
  submit_pending(ring, submit_what, false);
  return spin_.wait(ring, in_kernel_, wait_what);
}

void RingRequests::submit_now(io_uring& ring, const char* submit_what) {
  submit_pending(ring, submit_what, true);
}

void RingRequests::submit_pending(io_uring& ring, const char* submit_what, bool post_finished) {
  if (queued_ == 0) return;
  queued_ = 0;
  submit_queued(ring, in_kernel_, submit_what, post_finished);
}

void RingRequests::abandon(io_uring& ring) {
  abandoned_ = true;
  reap_abandoned(ring, in_kernel_);
}

std::string spin_description(const CompletionSpin& spin) {
  return spin.limit_us() == 0 ? "completions waited for asleep"
                              : fmt::format("completions polled up to {} us at queue depths up to {} while a CPU is free",
                                            spin.limit_us(), CompletionSpin::kMaxInFlight);
}

}  // namespace ssdprobe
