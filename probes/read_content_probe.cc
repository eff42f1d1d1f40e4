#include "probes/read_content_probe.h"

#include <algorithm>
#include <cstddef>

#include "runner/runner.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kLargestSample = 128 * 1024;

// The one value every byte of `bytes` holds, if there is one.
std::optional<uint8_t> only_value(const std::byte* bytes, size_t length) {
  if (length == 0) return std::nullopt;
  const std::byte first = bytes[0];
  for (size_t i = 1; i < length; ++i) {
    if (bytes[i] != first) return std::nullopt;
  }
  return static_cast<uint8_t>(first);
}

}  // namespace

ReadContent sample_read_content(Device& device, const GridPlan& plan, uint32_t samples) {
  ReadContent content;
  const uint32_t block = device.limits().logical_block;
  const uint64_t length = std::min<uint64_t>({plan.slot_bytes, kLargestSample, device.limits().max_transfer}) /
                          block * block;
  if (length == 0 || plan.slot_count == 0 || samples == 0) return content;
  const uint64_t count = std::min<uint64_t>(samples, plan.slot_count);
  ProbeRunner runner(device, 1, static_cast<uint32_t>(length));
  bool same = true;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t slot = i * plan.slot_count / count;
    const PlannedIo io(IoOp::read, plan.first_slot + slot * plan.slot_bytes, static_cast<uint32_t>(length));
    try {
      runner.run(std::span(&io, 1));
    } catch (const IoFailed&) {
      break;
    }
    const std::optional<uint8_t> value = only_value(runner.buffer(0).data(), length);
    same = same && value && (!content.only_byte || *content.only_byte == *value);
    content.only_byte = same ? value : std::nullopt;
    ++content.reads;
    content.bytes += length;
  }
  return content;
}

}  // namespace ssdprobe
