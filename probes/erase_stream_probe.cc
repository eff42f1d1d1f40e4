#include "probes/erase_stream_probe.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "runner/runner.h"

namespace ssdprobe {
namespace {

std::vector<PlannedIo> sequential_pass(const Region& window, uint64_t chunk) {
  std::vector<PlannedIo> ios;
  for (uint64_t at = window.offset; at + chunk <= window.offset + window.length; at += chunk) {
    ios.push_back({IoOp::write, at, static_cast<uint32_t>(chunk)});
  }
  return ios;
}

// How many writes per pass fit the budget, judged from the first `done`
// writes of pass 1 (which took `spent_ns`); never fewer than those.
size_t writes_that_fit(size_t planned, size_t done, uint64_t spent_ns, const EraseStreamOptions& options) {
  if (options.budget_s <= 0.0 || done == 0 || spent_ns == 0) return planned;
  const double per_write_s = static_cast<double>(spent_ns) / 1e9 / static_cast<double>(done);
  const auto fit = static_cast<size_t>(options.budget_s / (2.0 * per_write_s));
  return std::clamp(fit, done, planned);
}

}  // namespace

EraseStreamResult run_erase_stream(Device& device, const EraseStreamOptions& options) {
  if (!device.writable()) throw Error(ErrorCategory::internal, "erase stream needs a writable device");
  EraseStreamResult result;
  result.window = options.window;
  result.stream.chunk_bytes = options.chunk_bytes;
  ProbeRunner runner(device, 1, static_cast<uint32_t>(options.chunk_bytes));
  runner.fill_buffers(options.seed);
  auto ios = sequential_pass(options.window, options.chunk_bytes);
  const size_t planned = ios.size();
  const uint64_t start = runner.now_ns();
  constexpr size_t kBatch = 256;  // progress granularity, and the sample that sets the pace
  for (int pass = 1; pass <= 2; ++pass) {
    for (size_t first = 0; first < ios.size(); first += kBatch) {
      const size_t count = std::min(kBatch, ios.size() - first);
      const auto latency = runner.run(std::span(ios).subspan(first, count));
      if (pass == 2) result.stream.latency_us.insert(result.stream.latency_us.end(), latency.begin(), latency.end());
      result.bytes_written += count * options.chunk_bytes;
      if (pass == 1 && first == 0) ios.resize(writes_that_fit(ios.size(), count, runner.now_ns() - start, options));
      if (options.progress) options.progress(pass, first + count, ios.size());
    }
  }
  result.streamed_bytes = ios.size() * options.chunk_bytes;
  result.cut_to_budget = ios.size() < planned;
  result.elapsed_s = static_cast<double>(runner.now_ns() - start) / 1e9;
  result.device_state = fmt::format(
      "window {} written sequentially once in writes of {} (preconditioned), then timed on a second identical pass",
      format_byte_range(options.window.offset, result.streamed_bytes), format_size(options.chunk_bytes));
  if (result.cut_to_budget) {
    result.device_state += fmt::format(" (the stream covered {} of the {} window to fit --budget)",
                                       format_size(result.streamed_bytes), format_size(options.window.length));
  }
  result.verdict = infer_erase_block(result.stream, options.min_periods);
  return result;
}

}  // namespace ssdprobe
