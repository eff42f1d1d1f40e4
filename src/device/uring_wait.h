// Submitting and waiting for one io_uring completion, shared by the io_uring and NVMe
// passthrough engines.
#pragma once

#include <liburing.h>

namespace ssdprobe {

// io_uring_wait_cqe, retried when a signal interrupts the wait (a signal is
// acted on between IOs, by the runner, never by dropping a completion).
// Throws os_error naming `what` on any other failure. The caller marks the
// returned entry seen.
io_uring_cqe* wait_for_completion(io_uring& ring, const char* what);

// Submits every prepared SQE and, with wait_nr > 0, waits for that many
// completions in the same io_uring_enter; retried when a signal interrupts
// it. Throws os_error naming `what` on any other failure.
void submit_pending(io_uring& ring, unsigned wait_nr, const char* what);

}  // namespace ssdprobe
