// The default engine: io_uring on an O_DIRECT descriptor, with the file and
// the runner's buffers registered (IOSQE_FIXED_FILE, READ_FIXED/WRITE_FIXED)
// so the kernel neither looks up the fd nor pins pages per request. If buffer
// registration is refused (RLIMIT_MEMLOCK), plain READ/WRITE are used and
// engine_description() says so. Only this file includes liburing.
// submit() only queues: the next wait_one() submits everything queued in
// one io_uring_enter and then waits (a second one only when nothing has
// completed yet); poll_one() reaps what has already completed.
#pragma once

#include <memory>
#include <vector>

#include "core/unique_fd.h"
#include "device/device.h"
#include "device/completion_spin.h"

struct io_uring_cqe;
struct io_uring_sqe;

namespace ssdprobe {

class UringDevice : public Device {
 public:
  // Throws Error(unsupported) when io_uring cannot be set up (old kernel,
  // io_uring disabled by sysctl or seccomp).
  UringDevice(UniqueFd fd, DeviceLimits limits, bool writable, uint32_t ring_entries = 256);
  ~UringDevice() override;

  // The same engine with no device behind it: every request is an
  // IORING_OP_NOP, which the kernel completes at once, reported as a whole
  // transfer. What a runner measures on it is the engine's own cost per IO
  // (its ceiling: bench/engine_ceiling); nothing is read or written.
  static std::unique_ptr<UringDevice> without_device(DeviceLimits limits, uint32_t ring_entries = 256);

  const DeviceLimits& limits() const override { return limits_; }
  std::string engine_description() const override;
  bool writable() const override { return writable_; }
  void attach_buffers(std::span<AlignedBuffer> buffers) override;
  void submit(const IoRequest& request) override;
  void submit_queued() override;
  IoCompletion wait_one() override;
  std::optional<IoCompletion> poll_one() override;
  void abandon_in_flight() override;
  unsigned abandoned_requests() const override { return requests_.abandoned_requests(); }
  void set_completion_spin(uint32_t max_us) override { requests_.spin().set_limit_us(max_us); }
  std::optional<WaitCounts> wait_counts() const override { return requests_.spin().counts(); }
  bool uses_io_uring() const override { return true; }
  std::unique_ptr<Device> another_ring() override;
  bool opens_other_rings() const override { return true; }
  uint64_t now_ns() override;

 private:
  struct Ring;
  // Decodes one completion queue entry and marks it seen.
  IoCompletion take(io_uring_cqe* cqe);
  void submit_nop(io_uring_sqe* sqe, const IoRequest& request);
  UniqueFd fd_;
  DeviceLimits limits_;
  bool writable_;
  std::unique_ptr<Ring> ring_;
  std::span<AlignedBuffer> buffers_;
  bool fixed_buffers_ = false;
  bool fixed_file_ = false;
  std::string ring_setup_;  // which task-work mode the kernel accepted ("" for the plain ring)
  bool nop_ = false;        // without_device(): NOPs instead of reads and writes
  std::vector<uint32_t> nop_lengths_;  // by tag (the runner's slot): the length a NOP stands for
  RingRequests requests_;   // queued, in the kernel, abandoned; how wait_one waits
};

}  // namespace ssdprobe
