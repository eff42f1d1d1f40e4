// A Device wrapper that injects faults at chosen IOs (leveldb's EnvWrapper
// idea): IOs are counted per submit() from 0, and at a chosen index the IO
//  - fails with -EIO (or another -errno) without reaching the wrapped device,
//  - reaches the wrapped device but is reported short (fewer bytes), or
//  - completes late: now_ns() jumps forward by a delay when it completes.
// Everything else passes straight through. Wraps a Device by reference, or
// takes ownership of one (to replace a Target's device in place).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include "device/device.h"

namespace test_support {

class FaultyDevice : public ssdprobe::Device {
 public:
  explicit FaultyDevice(ssdprobe::Device& inner) : inner_(inner) {}
  explicit FaultyDevice(std::unique_ptr<ssdprobe::Device> owned) : owned_(std::move(owned)), inner_(*owned_) {}

  // IO #index fails with -errno_value; the wrapped device never sees it.
  FaultyDevice& fail_at(uint64_t index, int errno_value = EIO) {
    faults_[index] = {Kind::fail, errno_value, 0};
    return *this;
  }
  // IO #index goes through but completes with `bytes` fewer bytes than asked.
  FaultyDevice& short_at(uint64_t index, uint32_t bytes_missing) {
    faults_[index] = {Kind::short_transfer, 0, bytes_missing};
    return *this;
  }
  // IO #index goes through, and the clock jumps `delay_ns` when it completes:
  // at queue depth 1 its latency grows by exactly that much.
  FaultyDevice& delay_at(uint64_t index, uint64_t delay_ns) {
    faults_[index] = {Kind::delay, 0, delay_ns};
    return *this;
  }

  uint64_t submits() const { return submits_; }            // IOs seen so far (the next one's index)
  uint64_t faults_injected() const { return injected_; }   // fail, short and delay faults that took effect
  ssdprobe::Device& inner() { return inner_; }

  const ssdprobe::DeviceLimits& limits() const override { return inner_.limits(); }
  std::string engine_description() const override { return "faulty " + inner_.engine_description(); }
  bool writable() const override { return inner_.writable(); }
  void attach_buffers(std::span<ssdprobe::AlignedBuffer> buffers) override { inner_.attach_buffers(buffers); }

  void submit(const ssdprobe::IoRequest& request) override {
    const uint64_t index = submits_++;
    const auto fault = faults_.find(index);
    if (fault == faults_.end()) {
      inner_.submit(request);
      return;
    }
    switch (fault->second.kind) {
      case Kind::fail:
        ++injected_;
        failed_.push_back({request.tag, -static_cast<int64_t>(fault->second.errno_value)});
        return;
      case Kind::short_transfer:
      case Kind::delay:
        // Armed by tag: the completion that carries it gets the fault.
        armed_[request.tag] = fault->second;
        inner_.submit(request);
        return;
    }
  }

  ssdprobe::IoCompletion wait_one() override {
    if (!failed_.empty()) {
      const ssdprobe::IoCompletion done = failed_.front();
      failed_.pop_front();
      return done;
    }
    ssdprobe::IoCompletion done = inner_.wait_one();
    const auto armed = armed_.find(done.tag);
    if (armed != armed_.end()) {
      ++injected_;
      if (armed->second.kind == Kind::short_transfer && done.result > 0) {
        done.result = std::max<int64_t>(0, done.result - static_cast<int64_t>(armed->second.amount));
      } else if (armed->second.kind == Kind::delay) {
        clock_offset_ns_ += armed->second.amount;
      }
      armed_.erase(armed);
    }
    return done;
  }

  uint64_t now_ns() override { return inner_.now_ns() + clock_offset_ns_; }
  void idle(uint64_t ns) override { inner_.idle(ns); }

 private:
  enum class Kind { fail, short_transfer, delay };
  struct Fault {
    Kind kind = Kind::fail;
    int errno_value = EIO;
    uint64_t amount = 0;  // bytes missing, or delay in ns
  };

  std::unique_ptr<ssdprobe::Device> owned_;  // set when constructed from a unique_ptr
  ssdprobe::Device& inner_;
  std::map<uint64_t, Fault> faults_;             // by IO index
  std::map<uint64_t, Fault> armed_;              // by tag, submitted and not yet completed
  std::deque<ssdprobe::IoCompletion> failed_;    // completions of failed IOs, not yet returned
  uint64_t submits_ = 0;
  uint64_t injected_ = 0;
  uint64_t clock_offset_ns_ = 0;
};

}  // namespace test_support
