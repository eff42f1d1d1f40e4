#include "probes/slc_cache_probe.h"

#include <algorithm>

#include "core/block_math.h"
#include "core/error.h"
#include "runner/runner.h"

namespace ssdprobe {
namespace {

constexpr size_t kWritesPerLook = 16;  // writes between two looks for a drop

// The next `count` writes of a fill that wraps around the window.
std::vector<PlannedIo> next_writes(const Region& window, uint64_t io_bytes, uint64_t& at, size_t count) {
  std::vector<PlannedIo> ios;
  for (size_t i = 0; i < count; ++i) {
    if (at + io_bytes > window.offset + window.length) at = window.offset;
    ios.push_back({IoOp::write, at, static_cast<uint32_t>(io_bytes)});
    at += io_bytes;
  }
  return ios;
}

double seconds_since(ProbeRunner& runner, uint64_t start_ns) {
  return static_cast<double>(runner.now_ns() - start_ns) / 1e9;
}

// When to look for a drop next: after 16 more writes, or 3 % more, whichever
// is later. Each look re-reads every latency so far, so looks spaced
// geometrically keep a long fill (131,072 writes of 128 KiB in 16 GiB) cheap;
// the drop's place does not depend on when it is seen, only its confirmation
// costs a few more writes.
size_t next_look(size_t writes) { return std::max(writes + kWritesPerLook, writes + writes * 3 / 100); }

// A drop counts once two looks in a row put it at the same place (within a
// batch): a stretch of slow writes that has not recovered yet moves the split
// or disappears at the next look.
bool confirmed(const std::optional<ThroughputDrop>& previous, const std::optional<ThroughputDrop>& now) {
  if (!previous || !now) return false;
  const size_t a = previous->index, b = now->index;
  return (a > b ? a - b : b - a) <= kWritesPerLook;
}

// What one fill is: its number (1, or 2 after idling), the idle before it,
// its cap, and where a flat fill may end (0: only at the cap).
struct FillPlan {
  int number = 1;
  double idle_s = 0.0;
  uint64_t cap_bytes = 0;
  uint64_t flat_stop_bytes = 0;
};

// Flat: not even a step the looser rule accepts, so nothing the rest of the
// cap could confirm has begun. (A cache larger than what was written shows no
// step either; the caller's flat_stop_bytes is how large one is worth finding.)
bool flat_past(const FillPlan& plan, const CacheFill& fill) {
  return plan.flat_stop_bytes > 0 && fill.written_bytes() >= plan.flat_stop_bytes &&
         !find_sustained_drop(fill.latency_us, suggestive_drop_rule());
}

// Idles, then writes until a confirmed sustained drop, the cap, a flat speed
// past plan.flat_stop_bytes, or the budget (options.budget_s of the probe's
// clock, from `probe_start_ns`).
CacheFill fill(Device& device, ProbeRunner& runner, const SlcCacheOptions& options, const FillPlan& plan,
               uint64_t probe_start_ns) {
  CacheFill result;
  result.idle_s = plan.idle_s;
  result.io_bytes = options.io_bytes;
  result.cap_bytes = plan.cap_bytes;
  device.idle(static_cast<uint64_t>(plan.idle_s * 1e9));
  uint64_t at = options.window.offset;
  const size_t most_writes = plan.cap_bytes / result.io_bytes;  // never past the cap, not even by one write
  size_t look_at = kWritesPerLook;
  std::optional<ThroughputDrop> previous;
  while (result.latency_us.size() < most_writes) {
    if (seconds_since(runner, probe_start_ns) >= options.budget_s) {
      result.end = FillEnd::budget;
      break;
    }
    const size_t count = std::min(kWritesPerLook, most_writes - result.latency_us.size());
    const auto ios = next_writes(options.window, result.io_bytes, at, count);
    const auto latency = runner.run(ios);
    result.latency_us.insert(result.latency_us.end(), latency.begin(), latency.end());
    if (options.progress) options.progress(plan.number, result.written_bytes(), plan.cap_bytes);
    if (result.latency_us.size() < look_at) continue;
    look_at = next_look(result.latency_us.size());
    const auto now = find_sustained_drop(result.latency_us);
    if (confirmed(previous, now)) {
      result.drop = now;
      result.end = FillEnd::drop;
      break;
    }
    previous = now;
    if (!now && flat_past(plan, result)) {
      result.end = FillEnd::flat_speed;
      break;
    }
  }
  // The cap or the budget ended it (a flat end has no step to show): the
  // whole fill is the best evidence there will be, so a drop it shows counts
  // without a second look.
  if (!result.drop) result.drop = find_sustained_drop(result.latency_us);
  return result;
}

}  // namespace

SlcCacheResult run_slc_cache_probe(Device& device, const SlcCacheOptions& options) {
  if (!device.writable()) throw Error(ErrorCategory::internal, "the SLC cache probe needs a writable device");
  if (options.budget_s <= 0.0) throw Error(ErrorCategory::internal, "the SLC cache probe needs a budget");
  // Whole logical blocks, no larger than the device takes in one request or
  // the window holds.
  const uint64_t block = device.limits().logical_block;
  const uint64_t largest = std::min<uint64_t>({options.io_bytes, device.limits().max_transfer, options.window.length});
  SlcCacheOptions o = options;
  o.io_bytes = std::max(align_down(largest, block), block);
  ProbeRunner runner(device, 1, static_cast<uint32_t>(o.io_bytes));
  runner.fill_buffers(o.seed);
  SlcCacheResult result;
  const uint64_t start = runner.now_ns();
  result.first = fill(device, runner, o, {1, o.idle_s, o.cap_bytes, o.flat_stop_bytes}, start);
  result.bytes_written = result.first.written_bytes();
  const bool time_left = seconds_since(runner, start) + o.recovery_idle_s < o.budget_s;
  if (result.first.drop && o.recovery_idle_s > 0.0 && time_left && o.cap_bytes > result.first.written_bytes()) {
    // The cap bounds the whole probe. What came back is at most the cache the
    // first fill found, and a drop needs its slower writes after it.
    const uint64_t left = o.cap_bytes - result.first.written_bytes();
    const uint64_t cap = std::min(left, 2 * result.first.bytes_before_drop() + 64 * o.io_bytes);
    result.recovery = fill(device, runner, o, {2, o.recovery_idle_s, cap, 0}, start);
    result.bytes_written += result.recovery->written_bytes();
  }
  result.elapsed_s = seconds_since(runner, start);
  return result;
}

}  // namespace ssdprobe
