#include "device/psync_device.h"

#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "core/error.h"

namespace ssdprobe {

uint64_t monotonic_raw_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

PsyncDevice::PsyncDevice(UniqueFd fd, DeviceLimits limits, bool writable)
    : fd_(std::move(fd)), limits_(limits), writable_(writable) {
  limits_.max_queue_depth = 1;
}

void PsyncDevice::attach_buffers(std::span<AlignedBuffer> buffers) { buffers_ = buffers; }

void PsyncDevice::submit(const IoRequest& request) {
  if (done_) throw Error(ErrorCategory::internal, "psync engine: second request before the first was reaped");
  if (request.op == IoOp::write && !writable_) {
    throw Error(ErrorCategory::refused, "write submitted to a device opened read-only");
  }
  std::byte* buffer = buffers_[request.buffer_index].data();
  const auto offset = static_cast<off_t>(request.offset);
  ssize_t n = request.op == IoOp::read ? ::pread(fd_.get(), buffer, request.length, offset)
                                       : ::pwrite(fd_.get(), buffer, request.length, offset);
  done_ = IoCompletion{request.tag, n < 0 ? -static_cast<int64_t>(errno) : static_cast<int64_t>(n)};
}

IoCompletion PsyncDevice::wait_one() {
  if (!done_) throw Error(ErrorCategory::internal, "psync engine: wait_one() with nothing in flight");
  IoCompletion completion = *done_;
  done_.reset();
  return completion;
}

uint64_t PsyncDevice::now_ns() { return monotonic_raw_ns(); }

}  // namespace ssdprobe
