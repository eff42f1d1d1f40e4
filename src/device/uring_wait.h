// Submitting, waiting for and peeking at io_uring completions, shared by the io_uring and NVMe
// passthrough engines.
#pragma once

#include <liburing.h>

namespace ssdprobe {

// io_uring_wait_cqe, retried when a signal interrupts the wait (a signal is
// acted on between IOs, by the runner, never by dropping a completion).
// Throws os_error naming `what` on any other failure. The caller marks the
// returned entry seen.
io_uring_cqe* wait_for_completion(io_uring& ring, const char* what);

// Submits every prepared SQE without waiting, retried when a signal
// interrupts it or when the kernel took only some (it stops at an SQE it
// could not prepare, which it completes with an error). Adds what the kernel
// took to `in_kernel` as it goes, also before it throws os_error naming
// `what` on a failed call, so the caller always knows how many completions
// it is owed. The engines submit, return to user space, then wait
// (UringDevice::wait_one says what one combined call cost). With
// `post_finished`, the same call also moves completions that finished
// meanwhile into the ring (with deferred task work they reach it only when
// asked), without waiting for any.
void submit_queued(io_uring& ring, unsigned& in_kernel, const char* what, bool post_finished = false);

// Waits for `in_kernel` completions and drops them, counting down, for at
// most `patience_s` in all (a failing wait is retried until then: the call
// that failed may well be the reason to abandon). Never throws
// (Device::abandon_in_flight); what is still owed stays in `in_kernel`.
void reap_abandoned(io_uring& ring, unsigned& in_kernel, double patience_s = 30.0);

// A completion already in the ring, or null: no system call, no wait. The
// caller marks it seen.
io_uring_cqe* ready_completion(io_uring& ring);

}  // namespace ssdprobe
