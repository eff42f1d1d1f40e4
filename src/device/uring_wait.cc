#include "device/uring_wait.h"

#include <cerrno>
#include <chrono>
#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {

io_uring_cqe* wait_for_completion(io_uring& ring, const char* what) {
  io_uring_cqe* cqe = nullptr;
  int rc;
  do {
    rc = io_uring_wait_cqe(&ring, &cqe);
  } while (rc == -EINTR);
  if (rc < 0) throw os_error(what, -rc);
  return cqe;
}

void submit_queued(io_uring& ring, unsigned& in_kernel, const char* what, bool post_finished) {
  // io_uring_sq_ready: prepared SQEs the kernel has not consumed yet.
  unsigned waiting = io_uring_sq_ready(&ring);
  for (int stalled = 0; waiting > 0;) {
    const int rc = post_finished ? io_uring_submit_and_get_events(&ring) : io_uring_submit(&ring);
    const unsigned left = io_uring_sq_ready(&ring);
    in_kernel += waiting - left;
    if (rc < 0 && rc != -EINTR) throw os_error(what, -rc);
    // A call that took nothing twice in a row will not take more.
    stalled = left == waiting ? stalled + 1 : 0;
    if (stalled == 2) throw Error(ErrorCategory::io, fmt::format("{}: the kernel accepts no more requests", what));
    waiting = left;
  }
}

void reap_abandoned(io_uring& ring, unsigned& in_kernel, double patience_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(patience_s);
  while (in_kernel > 0 && std::chrono::steady_clock::now() < deadline) {
    __kernel_timespec tick{0, 100'000'000};  // wake every 100 ms to check the deadline
    io_uring_cqe* cqe = nullptr;
    if (io_uring_wait_cqe_timeout(&ring, &cqe, &tick) == 0 && cqe != nullptr) {
      io_uring_cqe_seen(&ring, cqe);
      --in_kernel;
    }
  }
}

io_uring_cqe* ready_completion(io_uring& ring) {
  io_uring_cqe* cqe = nullptr;
  return io_uring_peek_cqe(&ring, &cqe) == 0 ? cqe : nullptr;
}

}  // namespace ssdprobe
