#include "device/uring_wait.h"

#include <cerrno>

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

void submit_queued(io_uring& ring, const char* what) {
  int rc;
  do {
    rc = io_uring_submit(&ring);
  } while (rc == -EINTR);
  if (rc < 0) throw os_error(what, -rc);
}

io_uring_cqe* ready_completion(io_uring& ring) {
  io_uring_cqe* cqe = nullptr;
  return io_uring_peek_cqe(&ring, &cqe) == 0 ? cqe : nullptr;
}

}  // namespace ssdprobe
