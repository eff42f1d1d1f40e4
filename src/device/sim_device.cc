#include "device/sim_device.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {

SimDevice::SimDevice(const SimProfile& profile, uint64_t seed, bool writable)
    : model_(profile, seed), host_random_(seed ^ 0x686f737464656c61ull), writable_(writable) {
  limits_.size_bytes = profile.capacity_bytes;
  limits_.logical_block = profile.logical_block;
  limits_.max_transfer = 1u << 20;
  limits_.max_queue_depth = profile.max_queue_depth;
  unit_free_ns_.assign(profile.parallel_units, 0);
}

std::string SimDevice::engine_description() const {
  return fmt::format("simulated drive '{}' (virtual clock)", model_.profile().name);
}

void SimDevice::attach_buffers(std::span<AlignedBuffer> buffers) { buffers_ = buffers; }

void SimDevice::fill_read(const IoRequest& request) {
  if (request.buffer_index >= buffers_.size()) return;
  std::byte* data = buffers_[request.buffer_index].data();
  constexpr uint32_t kSector = 512;
  const bool fresh = model_.profile().unwritten_reads_skip_nand;
  for (uint32_t at = 0; at + kSector <= request.length; at += kSector) {
    const uint64_t offset = request.offset + at;
    if (fresh && !model_.touches_written(offset, kSector)) {
      std::memset(data + at, 0, kSector);
    } else {
      // Data: the sector's own offset, never all one byte.
      const uint64_t mark = offset | 0x5a00000000000001ull;
      std::memcpy(data + at, &mark, sizeof mark);
    }
  }
}

void SimDevice::submit(const IoRequest& request) {
  if (request.op == IoOp::write && !writable_) {
    throw Error(ErrorCategory::refused, "write submitted to a device opened read-only");
  }
  const double us = model_.service_us(request.op, request.offset, request.length);
  if (request.op == IoOp::read) fill_read(request);
  // Units are striped by the interleave (the read page, or 16 KiB, unless the
  // profile names one); a profile without units serializes nothing.
  uint64_t done = now_ns_ + static_cast<uint64_t>(us * 1000.0);
  if (!unit_free_ns_.empty()) {
    uint64_t& unit_free = unit_free_ns_[(request.offset / model_.profile().interleave()) % unit_free_ns_.size()];
    done = std::max(now_ns_, unit_free) + static_cast<uint64_t>(us * 1000.0);
    unit_free = done;
  }
  // The unit is free at `done`; a host delay only makes the host see it later.
  const SimProfile& p = model_.profile();
  if (p.host_delay_probability > 0.0 && host_random_.uniform() < p.host_delay_probability) {
    done += static_cast<uint64_t>(-p.host_delay_us * std::log(1.0 - host_random_.uniform()) * 1000.0);
  }
  pending_.push(Pending{done, sequence_++, IoCompletion{request.tag, request.length}});
}

void SimDevice::idle(uint64_t ns) {
  if (!pending_.empty()) throw Error(ErrorCategory::internal, "idle() with requests in flight");
  uint64_t busy_until = now_ns_;
  for (uint64_t unit_free : unit_free_ns_) busy_until = std::max(busy_until, unit_free);
  now_ns_ = busy_until + ns;
  model_.idle(static_cast<double>(ns) / 1e9);
}

IoCompletion SimDevice::wait_one() {
  if (pending_.empty()) throw Error(ErrorCategory::internal, "wait_one() with nothing in flight");
  Pending next = pending_.top();
  pending_.pop();
  now_ns_ = std::max(now_ns_, next.done_ns);
  ++ios_served_;
  return next.completion;
}

}  // namespace ssdprobe
