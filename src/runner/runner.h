// The probe runner: the one layer that takes timestamps. It keeps up to
// queue_depth requests in flight, stamps each with the device's clock just
// before submit() and just after wait_one() (or poll_one()) returns it, and
// hands back the latencies. Backends never time anything themselves.
// Between submissions it checks for SIGINT/SIGTERM (safety/interrupt.h): it
// then stops submitting, reaps what is in flight and throws
// Error(interrupted).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/aligned_buffer.h"
#include "core/error.h"
#include "device/device.h"

namespace ssdprobe {

// 16 bytes, so a round of a million IOs plans in 16 MB: the fields are laid
// out widest first, and the constructor keeps the {op, offset, length}
// order every caller writes.
struct PlannedIo {
  uint64_t offset = 0;
  uint32_t length = 0;
  IoOp op = IoOp::read;

  PlannedIo() = default;
  PlannedIo(IoOp op_in, uint64_t offset_in, uint32_t length_in) : offset(offset_in), length(length_in), op(op_in) {}
};
static_assert(sizeof(PlannedIo) == 16);

// An IO the device completed with an error or short. The runner reaped every
// other request first, so nothing is in flight and the device can be used
// again: an optional probe may note the failure and let the run go on.
// Any other exception out of run() leaves the device abandoned
// (Device::abandon_in_flight): the run must end.
class IoFailed : public Error {
 public:
  explicit IoFailed(const std::string& message) : Error(ErrorCategory::io, message) {}
};

class ProbeRunner {
 public:
  // While reaping, the queued replacements go to the kernel every this
  // many (Device::submit_queued): at QD 32 on a loop device this gave
  // 1.02-1.24 times fio's IOPS where submitting them all after the batch
  // gave 0.90-1.01 (docs/engine.md). With 8 or fewer in flight (where the
  // engine polls) that is at most one call per batch, as before.
  static constexpr uint32_t kSubmitEvery = 8;

  // Allocates queue_depth buffers of max_request_bytes and attaches them.
  // Throws Error(usage) if queue_depth exceeds what the device allows.
  ProbeRunner(Device& device, uint32_t queue_depth, uint32_t max_request_bytes);

  // Issues `ios` in order and returns each one's latency in microseconds, in
  // the same order. A failed or short IO throws IoFailed naming it. With
  // `finished_ns`, also each IO's completion stamp (device clock), in the
  // same order: throughput probes need when IOs ended, not only how long.
  std::vector<double> run(std::span<const PlannedIo> ios, std::vector<uint64_t>* finished_ns = nullptr);

  // Fills every buffer with pseudo-random bytes from `seed` (write payloads),
  // each 512-byte sector tagged as test data (core/probe_data.h).
  void fill_buffers(uint64_t seed);

  // The bytes of buffer `index` (a read's data once run() returned it).
  std::span<const std::byte> buffer(uint32_t index) const {
    return std::span(buffers_.at(index).data(), buffers_.at(index).size());
  }
  uint64_t now_ns() { return device_.now_ns(); }
  uint64_t ios_issued() const { return ios_issued_; }
  uint64_t bytes_issued() const { return bytes_issued_; }  // warm-up included
  uint32_t queue_depth() const { return queue_depth_; }

 private:
  // Waits for `in_flight` completions and drops them (after a failed IO).
  void drain(size_t in_flight);
  // The loop of run(), without its failure handling.
  void issue(std::span<const PlannedIo> ios, std::vector<double>& latency_us, std::vector<uint64_t>* finished_at);
  // Takes a free slot, stamps the start of ios[index] and submits it.
  void start(std::span<const PlannedIo> ios, size_t index);
  // Stamps one completion, records its latency and frees its slot; throws
  // Error(io) for a failed or short IO, after draining the
  // `others_in_flight` requests still out.
  void finish(const IoCompletion& done, std::span<const PlannedIo> ios, std::vector<double>& latency_us,
              std::vector<uint64_t>* finished_at, size_t others_in_flight);
  Device& device_;
  uint32_t queue_depth_;
  std::vector<AlignedBuffer> buffers_;
  uint64_t ios_issued_ = 0;
  uint64_t bytes_issued_ = 0;
  // Per buffer slot, reused by every run() (no allocation per IO or per run).
  std::vector<size_t> slot_io_;
  std::vector<uint64_t> slot_started_ns_;
  std::vector<uint32_t> free_slots_;
};

}  // namespace ssdprobe
