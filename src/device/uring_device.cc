#include "device/uring_device.h"

#include <fcntl.h>
#include <liburing.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "core/error.h"
#include "device/uring_wait.h"
#include "device/psync_device.h"

namespace ssdprobe {

struct UringDevice::Ring {
  io_uring ring{};
};

namespace {

// The ring set-ups to try, cheapest completions first. One thread submits
// and reaps (SINGLE_ISSUER), and completions are delivered only when it asks
// for them (DEFER_TASKRUN, Linux 6.1): no interrupt of the submitter to run
// completion work, and the work runs inside the io_uring_enter that waits.
// COOP_TASKRUN (5.19) is the next best; older kernels refuse unknown flags
// with EINVAL, and then the plain ring is used.
struct RingSetup {
  unsigned flags;
  const char* name;
};
constexpr RingSetup kRingSetups[] = {
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, "deferred task work"},
    {IORING_SETUP_COOP_TASKRUN, "cooperative task work"},
    {0, ""},
};

}  // namespace

UringDevice::UringDevice(UniqueFd fd, DeviceLimits limits, bool writable, uint32_t ring_entries)
    : fd_(std::move(fd)), limits_(limits), writable_(writable), ring_(std::make_unique<Ring>()) {
  int rc = -EINVAL;
  for (const RingSetup& setup : kRingSetups) {
    rc = io_uring_queue_init(ring_entries, &ring_->ring, setup.flags);
    if (rc != -EINVAL) {
      ring_setup_ = setup.name;
      break;
    }
  }
  if (rc < 0) {
    ring_.reset();
    throw Error(ErrorCategory::unsupported, fmt::format("io_uring is not available: {}", std::strerror(-rc)));
  }
  limits_.max_queue_depth = ring_entries;
  const int file = fd_.get();
  fixed_file_ = file >= 0 && io_uring_register_files(&ring_->ring, &file, 1) == 0;
}

std::unique_ptr<UringDevice> UringDevice::without_device(DeviceLimits limits, uint32_t ring_entries) {
  auto device = std::make_unique<UringDevice>(UniqueFd(), limits, true, ring_entries);
  device->nop_ = true;
  return device;
}

std::unique_ptr<Device> UringDevice::another_ring() {
  std::unique_ptr<UringDevice> ring;
  if (nop_) {
    ring = without_device(limits_, limits_.max_queue_depth);
  } else {
    // A second descriptor for the same open file: the same O_DIRECT file
    // description (and whatever claim it holds), a ring of its own.
    const int copy = fcntl(fd_.get(), F_DUPFD_CLOEXEC, 0);
    if (copy < 0) throw os_error("duplicating the device's descriptor for another ring", errno);
    ring = std::make_unique<UringDevice>(UniqueFd(copy), limits_, false, limits_.max_queue_depth);
  }
  ring->set_completion_spin(requests_.spin().limit_us());
  return ring;
}

UringDevice::~UringDevice() {
  if (!ring_) return;
  // Give the registered file back before the ring goes. Closing a ring
  // hands its teardown, and with it the last reference to a registered
  // file, to a kernel worker that runs after this process may have exited:
  // a block device opened with O_EXCL then stays claimed for a moment, and
  // the next run on it (or mkfs, or a test) is refused as busy.
  // Unregistering drops the reference in this call, so the claim ends when
  // the descriptor is closed.
  if (fixed_file_) io_uring_unregister_files(&ring_->ring);
  if (fixed_buffers_) io_uring_unregister_buffers(&ring_->ring);
  io_uring_queue_exit(&ring_->ring);
}

std::string UringDevice::engine_description() const {
  if (nop_) return fmt::format("io_uring NOPs (no device), {}{}", ring_setup_.empty() ? "plain ring" : ring_setup_,
                               ", " + spin_description(requests_.spin()));
  return fmt::format("io_uring, O_DIRECT, {} file, {} buffers{}, {}", fixed_file_ ? "fixed" : "plain",
                     fixed_buffers_ ? "registered" : "unregistered",
                     ring_setup_.empty() ? "" : ", " + ring_setup_, spin_description(requests_.spin()));
}

void UringDevice::attach_buffers(std::span<AlignedBuffer> buffers) {
  // A new runner brings new buffers: drop the previous registration first.
  if (fixed_buffers_) io_uring_unregister_buffers(&ring_->ring);
  buffers_ = buffers;
  std::vector<iovec> iovecs;
  for (auto& buffer : buffers) iovecs.push_back(iovec{buffer.data(), buffer.size()});
  fixed_buffers_ = io_uring_register_buffers(&ring_->ring, iovecs.data(), static_cast<unsigned>(iovecs.size())) == 0;
}

void UringDevice::submit(const IoRequest& request) {
  if (request.op == IoOp::write && !writable_) {
    throw Error(ErrorCategory::refused, "write submitted to a device opened read-only");
  }
  requests_.check_usable("io_uring");
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_->ring);
  if (sqe == nullptr) throw Error(ErrorCategory::internal, "io_uring submission queue full");
  if (nop_) {
    submit_nop(sqe, request);
    return;
  }
  void* buffer = buffers_[request.buffer_index].data();
  const int fd = fixed_file_ ? 0 : fd_.get();
  const int index = static_cast<int>(request.buffer_index);
  if (request.op == IoOp::read) {
    if (fixed_buffers_) io_uring_prep_read_fixed(sqe, fd, buffer, request.length, request.offset, index);
    else io_uring_prep_read(sqe, fd, buffer, request.length, request.offset);
  } else {
    if (fixed_buffers_) io_uring_prep_write_fixed(sqe, fd, buffer, request.length, request.offset, index);
    else io_uring_prep_write(sqe, fd, buffer, request.length, request.offset);
  }
  if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data64(sqe, request.tag);
  // Not submitted yet: the runner queues every request it can start (one,
  // or a batch after it reaped several completions) and wait_one() submits
  // them together.
  requests_.queued_one();
}

void UringDevice::submit_nop(io_uring_sqe* sqe, const IoRequest& request) {
  io_uring_prep_nop(sqe);
  io_uring_sqe_set_data64(sqe, request.tag);
  if (request.tag >= nop_lengths_.size()) nop_lengths_.resize(request.tag + 1);
  nop_lengths_[request.tag] = request.length;
  requests_.queued_one();
}

void UringDevice::submit_queued() {
  requests_.submit_now(ring_->ring, "io_uring_submit_and_get_events");
}

IoCompletion UringDevice::wait_one() {
  // Submit, return to user space, then wait: two system calls, not one
  // io_uring_enter that submits and sleeps at once. Measured on a loop
  // device (bench/engine_vs_fio, QD1, unpinned): submitting and sleeping in
  // the same call made the scheduler wake the submitter a third time per
  // IO and move it between CPUs (3.0 wake-ups and 0.6 migrations per IO
  // against 2.2 and 0.2), which halved IOPS (67k against 128k) and doubled
  // the median latency (5.9 us against 2.9 us). With deferred task work
  // a completion reaches the ring only inside a waiting io_uring_enter, so
  // the wait is a system call even when the request is already done.
  return take(requests_.submit_then_wait(ring_->ring, "io_uring_submit", "io_uring_wait_cqe"));
}

std::optional<IoCompletion> UringDevice::poll_one() {
  io_uring_cqe* cqe = ready_completion(ring_->ring);
  if (cqe == nullptr) return std::nullopt;
  return take(cqe);
}

IoCompletion UringDevice::take(io_uring_cqe* cqe) {
  IoCompletion completion{io_uring_cqe_get_data64(cqe), cqe->res};
  if (nop_ && completion.result == 0) completion.result = nop_lengths_[completion.tag];
  io_uring_cqe_seen(&ring_->ring, cqe);
  requests_.took_one();
  return completion;
}

void UringDevice::abandon_in_flight() {
  requests_.abandon(ring_->ring);
}

uint64_t UringDevice::now_ns() { return monotonic_raw_ns(); }

}  // namespace ssdprobe
