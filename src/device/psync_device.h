// The fallback engine: pread(2)/pwrite(2) on an O_DIRECT descriptor, one
// request at a time (queue depth 1). submit() performs the IO; wait_one()
// hands back its result, so the runner's stamps bracket the system call.
#pragma once

#include <optional>
#include <vector>

#include "core/unique_fd.h"
#include "device/device.h"

namespace ssdprobe {

class PsyncDevice : public Device {
 public:
  // Takes ownership of an fd opened with O_DIRECT.
  PsyncDevice(UniqueFd fd, DeviceLimits limits, bool writable);

  const DeviceLimits& limits() const override { return limits_; }
  std::string engine_description() const override { return "psync (pread/pwrite), O_DIRECT, queue depth 1"; }
  bool writable() const override { return writable_; }
  void attach_buffers(std::span<AlignedBuffer> buffers) override;
  void submit(const IoRequest& request) override;
  IoCompletion wait_one() override;
  uint64_t now_ns() override;

 private:
  UniqueFd fd_;
  DeviceLimits limits_;
  bool writable_;
  std::span<AlignedBuffer> buffers_;
  std::optional<IoCompletion> done_;
};

// CLOCK_MONOTONIC_RAW in nanoseconds: the clock of every real device.
uint64_t monotonic_raw_ns();

}  // namespace ssdprobe
