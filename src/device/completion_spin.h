// How the io_uring engines wait for a completion (poll for a while, then
// sleep) and what they owe (RingRequests). Declared without liburing (forward declarations), so the engines'
// headers can hold one without bringing liburing to their includers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "device/cpu_contention.h"
#include "device/io_counts.h"

struct io_uring;
struct io_uring_cqe;

namespace ssdprobe {

// Why a wait that found nothing ready may not poll, in the order checked
// (the host's CPUs are read last: that costs a file read every
// CpuContention::kRecheckNs); nullopt when it may. `typical_wait_ns`: the
// recent waits' average; `limit_ns`: how long a poll may last (not 0).
std::optional<SleepReason> reason_not_to_poll(unsigned in_kernel, uint64_t typical_wait_ns, uint64_t limit_ns,
                                              CpuContention& contention, uint64_t now_ns);

// Hybrid waiting: poll for a completion for a while, then sleep.
//
// Sleeping in io_uring_enter until a request completes adds the process's
// own wake-up to every latency (measured on this project's 2-vCPU VM with a
// loop device: 4 KiB reads at QD1 took a median 15-49 us asleep against
// 16 us polled, and QD4 ran at 65-82k IOPS asleep against 220-270k polled,
// where fio, which sleeps, ran 75-89k). Polling pays while few requests are
// out and each comes back soon; with a deep queue a completion is nearly
// always there already, and returning on the first one only shrinks the
// batches the runner resubmits (QD128 polled: 340-355k IOPS against 445-455k
// asleep). So it polls only while at most kMaxInFlight requests are out,
// the recent waits (an average over the last ~16) were shorter than the
// limit, and the host has a CPU to spare: a poller on a host whose cores
// other work fills takes one from it (device/cpu_contention.h).
class CompletionSpin {
 public:
  static constexpr unsigned kMaxInFlight = 8;
  void set_limit_us(uint32_t max_us) { limit_ns_ = uint64_t{max_us} * 1000; }
  uint32_t limit_us() const { return static_cast<uint32_t>(limit_ns_ / 1000); }
  // Waits for the next completion: polls (flushing deferred completions
  // into the ring as it goes) while that pays, then sleeps.
  io_uring_cqe* wait(io_uring& ring, unsigned in_kernel, const char* what);
  const WaitCounts& counts() const { return counts_; }

 private:
  WaitCounts counts_;
  CpuContention contention_;
  uint64_t limit_ns_ = 0;
  uint64_t typical_wait_ns_ = 0;  // moving average of the time waits took
};

// What an io_uring engine owes: requests queued but not yet submitted,
// submitted but not yet taken, and whether a failure made it give up. Both
// engines (block and NVMe passthrough) route every request and completion
// through one, so the count abandon() waits for stays exact.
class RingRequests {
 public:
  // Before an SQE is prepared: once abandoned, throws Error(internal)
  // naming `engine`.
  void check_usable(const char* engine) const;
  void queued_one() { ++queued_; }
  // wait_one: submits what is queued (the kernel's take counted), then
  // waits for a completion as spin() decides. `submit_what` and `wait_what`
  // name the calls in errors.
  io_uring_cqe* submit_then_wait(io_uring& ring, const char* submit_what, const char* wait_what);
  // Device::submit_queued: submits what is queued and posts completions
  // that finished meanwhile, without waiting.
  void submit_now(io_uring& ring, const char* submit_what);
  // A completion was marked seen: call before anything that can throw.
  void took_one() {
    if (in_kernel_ > 0) --in_kernel_;
  }
  // Device::abandon_in_flight: refuses further IO and reaps what the kernel
  // holds (uring_wait.h reap_abandoned); what it could not reap stays in
  // abandoned_requests().
  void abandon(io_uring& ring);
  unsigned abandoned_requests() const { return abandoned_ ? in_kernel_ : 0; }
  CompletionSpin& spin() { return spin_; }
  const CompletionSpin& spin() const { return spin_; }

 private:
  // Submits what is queued, if anything (uring_wait.h submit_queued).
  void submit_pending(io_uring& ring, const char* submit_what, bool post_finished);
  unsigned queued_ = 0;     // prepared, not yet submitted
  unsigned in_kernel_ = 0;  // submitted, completion not yet taken
  bool abandoned_ = false;
  CompletionSpin spin_;
};

// For the engine line of the report: "completions polled up to 200 us" or
// "completions waited for asleep".
std::string spin_description(const CompletionSpin& spin);

}  // namespace ssdprobe
