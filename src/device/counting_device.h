// A Device that counts the IO it passes on to the engine it wraps: the run's
// own IO, which is subtracted from the disk's counters to find what others
// did meanwhile (run/other_io.h). Everything else is forwarded unchanged.
#pragma once

#include <memory>

#include "device/device.h"
#include "device/io_counts.h"

namespace ssdprobe {

class CountingDevice final : public Device {
 public:
  explicit CountingDevice(std::unique_ptr<Device> engine) : engine_(std::move(engine)) {}
  // Another ring's IO is the run's too: when it goes, it adds what it
  // counted to the device it came from (another_ring).
  CountingDevice(std::unique_ptr<Device> engine, CountingDevice* counted_into)
      : engine_(std::move(engine)), counted_into_(counted_into) {}
  ~CountingDevice() override;
  CountingDevice(const CountingDevice&) = delete;
  CountingDevice& operator=(const CountingDevice&) = delete;

  // Requests submitted so far (the kernel counts them as they complete;
  // between phases nothing is in flight, so the two agree there).
  const IoCounts& counts() const { return counts_; }

  const DeviceLimits& limits() const override { return engine_->limits(); }
  std::string engine_description() const override { return engine_->engine_description(); }
  bool writable() const override { return engine_->writable(); }
  void attach_buffers(std::span<AlignedBuffer> buffers) override { engine_->attach_buffers(buffers); }
  void submit(const IoRequest& request) override;
  void submit_queued() override { engine_->submit_queued(); }
  IoCompletion wait_one() override { return engine_->wait_one(); }
  std::optional<IoCompletion> poll_one() override { return engine_->poll_one(); }
  void abandon_in_flight() override { engine_->abandon_in_flight(); }
  unsigned abandoned_requests() const override { return engine_->abandoned_requests(); }
  void set_completion_spin(uint32_t max_us) override { engine_->set_completion_spin(max_us); }
  std::optional<WaitCounts> wait_counts() const override { return engine_->wait_counts(); }
  bool uses_io_uring() const override { return engine_->uses_io_uring(); }
  std::unique_ptr<Device> another_ring() override;
  bool opens_other_rings() const override { return engine_->opens_other_rings(); }
  uint64_t now_ns() override { return engine_->now_ns(); }
  void idle(uint64_t ns) override { engine_->idle(ns); }
  std::string describe_failure(int64_t result) const override { return engine_->describe_failure(result); }

 private:
  std::unique_ptr<Device> engine_;
  IoCounts counts_;
  CountingDevice* counted_into_ = nullptr;
};

}  // namespace ssdprobe
