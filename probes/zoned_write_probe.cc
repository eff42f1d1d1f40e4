#include "probes/zoned_write_probe.h"

#include <algorithm>

#include "runner/runner.h"

namespace ssdprobe {
namespace {

constexpr uint32_t kMaxChunk = 128 * 1024;
constexpr size_t kWritesPerCall = 32;  // writes per runner call: the budget is checked between batches

// One zone, written from its start in batches until its capacity or `budget_s`.
ZoneWritten write_zone(ProbeRunner& runner, const ZoneToWrite& zone, uint32_t chunk, double budget_s,
                       const ZonedWriteOptions& options, size_t index) {
  ZoneWritten out;
  out.start = zone.start;
  out.capacity = zone.capacity;
  out.stream.chunk_bytes = chunk;
  const uint64_t begun = runner.now_ns();
  std::vector<PlannedIo> batch;
  while (out.bytes_written < zone.capacity) {
    if (budget_s > 0.0 && static_cast<double>(runner.now_ns() - begun) * 1e-9 >= budget_s) {
      out.cut_to_budget = true;
      break;
    }
    batch.clear();
    for (uint64_t at = out.bytes_written; batch.size() < kWritesPerCall && at < zone.capacity;) {
      const auto length = static_cast<uint32_t>(std::min<uint64_t>(chunk, zone.capacity - at));
      batch.emplace_back(IoOp::write, zone.start + at, length);
      at += length;
    }
    const std::vector<double> latency = runner.run(batch);
    out.stream.latency_us.insert(out.stream.latency_us.end(), latency.begin(), latency.end());
    for (const PlannedIo& io : batch) out.bytes_written += io.length;
    if (options.progress) options.progress(index, out.bytes_written, zone.capacity);
  }
  out.stalls = infer_erase_block(out.stream);
  return out;
}

}  // namespace

uint32_t zoned_write_chunk(uint32_t logical_block, uint32_t max_transfer, uint64_t zone_append_max_bytes) {
  uint64_t chunk = std::min<uint64_t>(kMaxChunk, max_transfer);
  if (zone_append_max_bytes > 0) chunk = std::min(chunk, zone_append_max_bytes);
  chunk = chunk / logical_block * logical_block;
  return static_cast<uint32_t>(std::max<uint64_t>(chunk, logical_block));
}

ZonedWriteResult run_zoned_write_probe(Device& device, const ZonedWriteOptions& options) {
  ZonedWriteResult result;
  ProbeRunner runner(device, 1, options.chunk_bytes);  // one at a time: a zone takes writes in order
  runner.fill_buffers(options.seed);                   // tagged test data (core/probe_data.h)
  const uint64_t begun = runner.now_ns();
  const double share = options.zones.empty() ? 0.0 : options.budget_s / static_cast<double>(options.zones.size());
  for (size_t i = 0; i < options.zones.size(); ++i) {
    result.zones.push_back(write_zone(runner, options.zones[i], options.chunk_bytes, share, options, i));
    result.bytes_written += result.zones.back().bytes_written;
    result.ios += result.zones.back().stream.latency_us.size();
  }
  result.elapsed_s = static_cast<double>(runner.now_ns() - begun) * 1e-9;
  return result;
}

}  // namespace ssdprobe
