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

void submit_pending(io_uring& ring, unsigned wait_nr, const char* what) {
  int rc;
  do {
    rc = io_uring_submit_and_wait(&ring, wait_nr);
  } while (rc == -EINTR);
  if (rc < 0) throw os_error(what, -rc);
}

}  // namespace ssdprobe
