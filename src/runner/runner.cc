#include "runner/runner.h"

#include <cstring>
#include <fmt/format.h>

#include "core/error.h"
#include "core/random.h"
#include "core/interrupt.h"

namespace ssdprobe {

ProbeRunner::ProbeRunner(Device& device, uint32_t queue_depth, uint32_t max_request_bytes)
    : device_(device), queue_depth_(queue_depth) {
  if (queue_depth == 0 || queue_depth > device.limits().max_queue_depth) {
    throw Error(ErrorCategory::usage, fmt::format("queue depth {} is not supported by {} (1..{})", queue_depth,
                                                  device.engine_description(), device.limits().max_queue_depth));
  }
  for (uint32_t i = 0; i < queue_depth; ++i) buffers_.emplace_back(max_request_bytes);
  device_.attach_buffers(buffers_);
}

void ProbeRunner::fill_buffers(uint64_t seed) {
  Random random(seed ^ 0xda7aull);
  for (auto& buffer : buffers_) {
    auto* words = reinterpret_cast<uint64_t*>(buffer.data());
    for (size_t i = 0; i < buffer.size() / sizeof(uint64_t); ++i) words[i] = random.next();
  }
}

void ProbeRunner::drain(size_t in_flight) {
  for (; in_flight > 0; --in_flight) device_.wait_one();
}

std::vector<double> ProbeRunner::run(std::span<const PlannedIo> ios) {
  std::vector<double> latency_us(ios.size(), 0.0);
  std::vector<uint64_t> started_ns(ios.size(), 0);
  std::vector<uint32_t> free_buffers;
  for (uint32_t i = 0; i < queue_depth_; ++i) free_buffers.push_back(queue_depth_ - 1 - i);
  std::vector<uint32_t> buffer_of(ios.size(), 0);
  size_t next = 0, completed = 0;
  while (completed < ios.size()) {
    const bool stopping = interrupt_requested();
    if (stopping && next == completed) {
      throw Error(ErrorCategory::interrupted, fmt::format("interrupted by signal {}", interrupt_signal()));
    }
    while (!stopping && next < ios.size() && !free_buffers.empty()) {
      IoRequest request{ios[next].op, ios[next].offset, ios[next].length, free_buffers.back(), next};
      free_buffers.pop_back();
      buffer_of[next] = request.buffer_index;
      started_ns[next] = device_.now_ns();
      device_.submit(request);
      ++next;
      ++ios_issued_;
      bytes_issued_ += request.length;
    }
    const IoCompletion done = device_.wait_one();
    const uint64_t finished_ns = device_.now_ns();
    const PlannedIo& io = ios[done.tag];
    if (done.result != static_cast<int64_t>(io.length)) {
      const std::string why = done.result < 0 ? std::strerror(static_cast<int>(-done.result))
                                              : fmt::format("short transfer of {} bytes", done.result);
      // Reap what is still in flight first: the kernel may still be filling
      // the registered buffers this runner owns, and a later run on the same
      // device must not receive these completions.
      drain(next - completed - 1);
      throw Error(ErrorCategory::io, fmt::format("{} of {} bytes at offset {} failed: {}",
                                                 io.op == IoOp::read ? "read" : "write", io.length, io.offset, why));
    }
    latency_us[done.tag] = static_cast<double>(finished_ns - started_ns[done.tag]) / 1000.0;
    free_buffers.push_back(buffer_of[done.tag]);
    ++completed;
  }
  return latency_us;
}

}  // namespace ssdprobe
