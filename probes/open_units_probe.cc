#include "probes/open_units_probe.h"

#include <algorithm>

#include "core/error.h"
#include "runner/runner.h"

namespace ssdprobe {

std::vector<uint32_t> stream_ladder(uint32_t most) {
  std::vector<uint32_t> ladder;
  for (uint32_t power = 1; power <= most; power *= 2) {
    ladder.push_back(power);
    if (power >= 2 && power + power / 2 <= most) ladder.push_back(power + power / 2);  // 3, 6, 12, 24, ...
    if (power > (1u << 30)) break;
  }
  return ladder;
}

namespace {

// Where each stretch's stream goes on: advancing by whole writes, back to
// the stretch's start when the next write would leave it (the same bytes
// again: the window is journaled whole).
class StreamCursors {
 public:
  StreamCursors(const OpenUnitsOptions& options, uint32_t streams)
      : options_(options), next_(streams, 0) {}
  uint64_t next(uint32_t stream) {
    uint64_t& at = next_[stream];
    if (at + options_.io_bytes > options_.stretch_bytes) at = 0;
    const uint64_t offset = options_.window.offset + stream * options_.stretch_bytes + at;
    at += options_.io_bytes;
    return offset;
  }

 private:
  const OpenUnitsOptions& options_;
  std::vector<uint64_t> next_;
};

class Probe {
 public:
  Probe(Device& device, const OpenUnitsOptions& options, uint32_t most)
      : options_(options), runner_(device, 1, static_cast<uint32_t>(options.io_bytes)), cursors_(options, most) {
    runner_.fill_buffers(options.seed);
    start_ns_ = runner_.now_ns();
  }

  uint64_t bytes_of(uint32_t streams) const {
    return static_cast<uint64_t>(streams) * (options_.warmup_rounds + options_.timed_rounds) * options_.io_bytes;
  }

  // Whether a step of `streams` fits what is left of the cap and, at the
  // last step's pace per write, of the budget; records which ended it.
  bool fits(uint32_t streams, OpenUnitsResult& result) {
    if (result.bytes_written + bytes_of(streams) > options_.cap_bytes) {
      result.cut_by_cap = true;
      return false;
    }
    if (options_.budget_s > 0.0 && writes_ > 0) {
      const double per_write_s = elapsed_s() / static_cast<double>(writes_);
      const double writes = static_cast<double>(bytes_of(streams) / options_.io_bytes);
      if (elapsed_s() + std::max(per_write_s, last_per_write_s_) * writes > options_.budget_s) {
        result.cut_by_budget = true;
        return false;
      }
    }
    return true;
  }

  // N streams round-robin: the warm-up rounds, then the timed ones.
  StreamStep step(uint32_t streams, OpenUnitsResult& result) {
    StreamStep step{streams, {}};
    const uint64_t before_ns = runner_.now_ns();
    for (uint32_t round = 0; round < options_.warmup_rounds + options_.timed_rounds; ++round) {
      std::vector<PlannedIo> ios;
      for (uint32_t s = 0; s < streams; ++s) {
        ios.push_back({IoOp::write, cursors_.next(s), static_cast<uint32_t>(options_.io_bytes)});
      }
      const auto latency = runner_.run(ios);
      if (round >= options_.warmup_rounds) step.latency_us.insert(step.latency_us.end(), latency.begin(), latency.end());
      result.bytes_written += ios.size() * options_.io_bytes;
    }
    const uint64_t step_writes = bytes_of(streams) / options_.io_bytes;
    writes_ += step_writes;
    last_per_write_s_ = static_cast<double>(runner_.now_ns() - before_ns) / 1e9 / static_cast<double>(step_writes);
    if (options_.progress) options_.progress(streams, result.bytes_written);
    return step;
  }

  double elapsed_s() { return static_cast<double>(runner_.now_ns() - start_ns_) / 1e9; }

 private:
  const OpenUnitsOptions& options_;
  ProbeRunner runner_;
  StreamCursors cursors_;
  uint64_t start_ns_ = 0;
  uint64_t writes_ = 0;
  double last_per_write_s_ = 0.0;
};

StreamStepClass judged(const OpenUnitsResult& result, const StreamStep& step) {
  return judge_stream_step(result.steps.front().latency_us, step).judged;
}

}  // namespace

OpenUnitsResult run_open_units_probe(Device& device, const OpenUnitsOptions& options) {
  if (!device.writable()) throw Error(ErrorCategory::internal, "the open-units probe needs a writable device");
  if (options.stretch_bytes < options.io_bytes || options.io_bytes == 0)
    throw Error(ErrorCategory::internal, "the open-units probe's stretch is smaller than one write");
  OpenUnitsResult result;
  result.most_streams = static_cast<uint32_t>(std::min<uint64_t>(options.window.length / options.stretch_bytes, 1u << 16));
  if (result.most_streams == 0) return result;
  Probe probe(device, options, result.most_streams);
  // The ladder, up to the first N that collapsed.
  uint32_t clean = 0, collapsed = 0;
  for (uint32_t streams : stream_ladder(result.most_streams)) {
    if (!probe.fits(streams, result)) break;
    result.steps.push_back(probe.step(streams, result));
    const StreamStepClass c = judged(result, result.steps.back());
    if (c == StreamStepClass::collapsed) {
      collapsed = streams;
      break;
    }
    clean = c == StreamStepClass::clean ? streams : 0;
  }
  // Halve the gap between the last clean N and the first collapsed one.
  while (clean > 0 && collapsed > clean + 1) {
    const uint32_t mid = clean + (collapsed - clean) / 2;
    if (!probe.fits(mid, result)) break;
    result.steps.push_back(probe.step(mid, result));
    const StreamStepClass c = judged(result, result.steps.back());
    if (c == StreamStepClass::collapsed) {
      collapsed = mid;
    } else if (c == StreamStepClass::clean) {
      clean = mid;
    } else {
      break;  // neither: the verdict says the steps disagree
    }
  }
  result.elapsed_s = probe.elapsed_s();
  return result;
}

}  // namespace ssdprobe
