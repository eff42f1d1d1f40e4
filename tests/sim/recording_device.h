// A Device wrapper that records every request it forwards (ninja's
// "commands_ran_" idea): tests assert on the IO pattern a probe issued.
#pragma once

#include <vector>

#include "device/device.h"

namespace ssdprobe {

class RecordingDevice : public Device {
 public:
  explicit RecordingDevice(Device& inner) : inner_(inner) {}

  const DeviceLimits& limits() const override { return inner_.limits(); }
  std::string engine_description() const override { return "recording " + inner_.engine_description(); }
  bool writable() const override { return inner_.writable(); }
  void attach_buffers(std::span<AlignedBuffer> buffers) override { inner_.attach_buffers(buffers); }
  void submit(const IoRequest& request) override {
    requests.push_back(request);
    ++in_flight;
    if (in_flight > max_in_flight) max_in_flight = in_flight;
    inner_.submit(request);
  }
  IoCompletion wait_one() override {
    --in_flight;
    return inner_.wait_one();
  }
  uint64_t now_ns() override { return inner_.now_ns(); }
  void idle(uint64_t ns) override { inner_.idle(ns); }

  std::vector<IoRequest> requests;
  uint32_t in_flight = 0;
  uint32_t max_in_flight = 0;

 private:
  Device& inner_;
};

}  // namespace ssdprobe
