#include "runner/runner.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/probe_data.h"
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
    stamp_probe_tag(std::span(buffer.data(), buffer.size()));
  }
}

void ProbeRunner::drain(size_t in_flight) {
  for (; in_flight > 0; --in_flight) device_.wait_one();
}

void ProbeRunner::finish(const IoCompletion& done, std::span<const PlannedIo> ios, std::vector<double>& latency_us,
                         std::vector<uint64_t>* finished_at, size_t others_in_flight) {
  const uint64_t finished_ns = device_.now_ns();
  const uint32_t slot = static_cast<uint32_t>(done.tag);
  const size_t index = slot_io_[slot];
  const PlannedIo& io = ios[index];
  if (done.result != static_cast<int64_t>(io.length)) {
    const std::string why = done.result < 0 ? device_.describe_failure(done.result)
                                            : fmt::format("short transfer of {} bytes", done.result);
    // Reap what is still in flight first: the kernel may still be filling
    // the registered buffers this runner owns, and a later run on the same
    // device must not receive these completions.
    drain(others_in_flight);
    throw IoFailed(fmt::format("{} of {} bytes at offset {} failed: {}",
                                               io.op == IoOp::read ? "read" : "write", io.length, io.offset, why));
  }
  latency_us[index] = static_cast<double>(finished_ns - slot_started_ns_[slot]) / 1000.0;
  if (finished_at) (*finished_at)[index] = finished_ns;
  free_slots_.push_back(slot);
}

std::vector<double> ProbeRunner::run(std::span<const PlannedIo> ios, std::vector<uint64_t>* finished_at) {
  std::vector<double> latency_us(ios.size(), 0.0);
  if (finished_at) finished_at->assign(ios.size(), 0);
  try {
    issue(ios, latency_us, finished_at);
  } catch (const IoFailed&) {
    throw;  // drained: nothing in flight
  } catch (...) {
    // An engine call failed (or a signal's Error with nothing out): the
    // runner cannot tell which requests the kernel still holds; the device
    // can, and waits for them before anyone frees a buffer or restores.
    device_.abandon_in_flight();
    throw;
  }
  return latency_us;
}

void ProbeRunner::issue(std::span<const PlannedIo> ios, std::vector<double>& latency_us,
                        std::vector<uint64_t>* finished_at) {
  // Bookkeeping is per buffer slot (queue_depth entries), not per IO, so a
  // run of millions of IOs holds only its latencies. A request's tag is its
  // slot; the slot remembers which IO it carries and when it started.
  slot_io_.assign(queue_depth_, 0);
  slot_started_ns_.assign(queue_depth_, 0);
  free_slots_.clear();
  for (uint32_t i = 0; i < queue_depth_; ++i) free_slots_.push_back(queue_depth_ - 1 - i);
  size_t next = 0, completed = 0;
  while (completed < ios.size()) {
    const bool stopping = interrupt_requested();
    if (stopping && next == completed) {
      throw Error(ErrorCategory::interrupted, fmt::format("interrupted by signal {}", interrupt_signal()));
    }
    while (!stopping && next < ios.size() && !free_slots_.empty()) start(ios, next++);
    // One blocking wait (it submits what is queued), then every completion
    // that is already there, each one's replacement queued as soon as its
    // slot is free. Every kSubmitEvery replacements go to the kernel
    // together, and that call also posts what finished meanwhile: a long
    // batch neither leaves the device short of requests while it is reaped
    // nor costs a system call per IO, and completions that arrive during it
    // are reaped without another sleep. A batch ends after queue_depth
    // completions even if more keep arriving (NOPs complete inside the
    // submitting call), so a signal is seen at least that often.
    std::optional<IoCompletion> done = device_.wait_one();
    uint32_t queued = 0, reaped = 0;
    do {
      finish(*done, ios, latency_us, finished_at, next - completed - 1);
      ++completed;
      if (stopping || next == ios.size()) continue;
      start(ios, next++);
      if (++queued == kSubmitEvery) {
        device_.submit_queued();
        queued = 0;
      }
    } while (++reaped < queue_depth_ && completed < next && (done = device_.poll_one()));
  }
}

void ProbeRunner::start(std::span<const PlannedIo> ios, size_t index) {
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  slot_io_[slot] = index;
  slot_started_ns_[slot] = device_.now_ns();
  device_.submit(IoRequest{ios[index].op, ios[index].offset, ios[index].length, slot, slot});
  ++ios_issued_;
  bytes_issued_ += ios[index].length;
}

}  // namespace ssdprobe
