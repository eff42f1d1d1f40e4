#include "probes/parallelism_probe.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/random.h"
#include "runner/runner.h"

namespace ssdprobe {
namespace {

// Share of the budget the first phase (sweep + power-of-two strides) may use;
// the rest is for the multiples of the interleave.
constexpr double kFirstPhaseShare = 0.7;

template <typename T>
void shuffle(std::vector<T>& items, Random& random) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[random.below(i)]);
}

// Completions per second in the queue's steady state: the first quarter of
// the completions (at least `depth`: the queue filling and settling) and
// the last `depth` (the queue draining) are left out (parallelism_plan.h).
double steady_iops(std::vector<uint64_t> finished_ns, uint32_t depth) {
  std::sort(finished_ns.begin(), finished_ns.end());
  const size_t n = finished_ns.size();
  const size_t head = std::max<size_t>(depth, n / 4);
  if (n <= head + depth + 1) {
    const double span = static_cast<double>(finished_ns.back() - finished_ns.front());
    return span > 0 ? static_cast<double>(n - 1) / span * 1e9 : 0.0;
  }
  const double span = static_cast<double>(finished_ns[n - depth - 1] - finished_ns[head - 1]);
  return span > 0 ? static_cast<double>(n - depth - head) / span * 1e9 : 0.0;
}

class Prober {
 public:
  Prober(Device& device, const ParallelismPlan& plan, const ParallelismProbeOptions& options)
      : device_(device), plan_(plan), random_(options.seed ^ 0x7061726cull) {}

  DepthSegment segment(uint32_t depth, uint64_t ios) {
    ProbeRunner runner(device_, depth, plan_.read_bytes);
    std::vector<PlannedIo> plan(ios);
    for (auto& io : plan) io = PlannedIo{IoOp::read, plan_.read_at(random_.below(plan_.read_slots)), plan_.read_bytes};
    std::vector<uint64_t> finished;
    DepthSegment s;
    s.queue_depth = depth;
    s.latency_us = runner.run(plan, &finished);
    s.iops = steady_iops(finished, depth);
    ios_ += ios;
    return s;
  }

  void warm_up() {
    const uint32_t depth = std::min<uint32_t>(8, device_.limits().max_queue_depth);
    ProbeRunner runner(device_, depth, plan_.read_bytes);
    std::vector<PlannedIo> plan(64);
    for (auto& io : plan) io = PlannedIo{IoOp::read, plan_.read_at(random_.below(plan_.read_slots)), plan_.read_bytes};
    runner.run(plan);
  }

  // Lone reads (stride 0 in `items`) and pairs, in the order given.
  void strides(const std::vector<uint64_t>& items, std::vector<double>& single,
               std::vector<StrideSample>& samples) {
    ProbeRunner runner(device_, 2, plan_.read_bytes);
    for (uint64_t stride : items) {
      const uint64_t base = plan_.base_at(random_.below(plan_.base_count));
      if (stride == 0) {
        const PlannedIo io{IoOp::read, base, plan_.read_bytes};
        single.push_back(runner.run(std::span<const PlannedIo>(&io, 1)).front());
        ios_ += 1;
        continue;
      }
      const PlannedIo pair[2] = {{IoOp::read, base, plan_.read_bytes}, {IoOp::read, base + stride, plan_.read_bytes}};
      const auto latency = runner.run(pair);
      for (auto& s : samples) {
        if (s.stride_bytes == stride) s.pair_us.push_back(std::max(latency[0], latency[1]));
      }
      ios_ += 2;
    }
  }

  std::vector<uint64_t> stride_items(const std::vector<StrideSample>& samples, uint32_t per_stride) {
    std::vector<uint64_t> items;
    for (uint32_t k = 0; k < per_stride; ++k) {
      items.push_back(0);
      for (const auto& s : samples) items.push_back(s.stride_bytes);
    }
    shuffle(items, random_);
    return items;
  }

  Random& random() { return random_; }
  uint64_t ios() const { return ios_; }

 private:
  Device& device_;
  const ParallelismPlan& plan_;
  Random random_;
  uint64_t ios_ = 0;
};

}  // namespace

ParallelismProbeResult run_parallelism_probe(Device& device, const ParallelismPlan& plan,
                                             const ParallelismProbeOptions& options) {
  ParallelismProbeResult result;
  result.plan = plan;
  ParallelismData& data = result.data;
  data.read_bytes = plan.read_bytes;
  data.largest_depth_allowed = device.limits().max_queue_depth;
  if (plan.smallest_stride_is_page) data.smallest_known_interleave = plan.strides.front();
  if (device.limits().max_queue_depth < 2) {
    result.verdict = parallelism_not_measured("the IO engine keeps only one IO in flight (psync): there is no queue "
                                              "depth to sweep and no concurrent pair to time");
    return result;
  }
  const uint64_t start_ns = device.now_ns();
  auto elapsed_s = [&] { return static_cast<double>(device.now_ns() - start_ns) / 1e9; };
  Prober prober(device, plan, options);
  prober.warm_up();
  if (plan.strides_possible()) {
    for (uint64_t s : plan.strides) data.strides.push_back({s, {}});
  }

  const double first_phase_s = options.budget_s * (plan.strides_possible() ? kFirstPhaseShare : 1.0);
  double round_s = 0.0;
  for (int round = 1; round <= options.rounds; ++round) {
    // Stop before a round that would not fit (the first always runs).
    if (round > 1 && elapsed_s() + round_s > first_phase_s) break;
    const double round_start = elapsed_s();
    std::vector<size_t> order(plan.depths.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    shuffle(order, prober.random());
    for (size_t i : order) data.segments.push_back(prober.segment(plan.depths[i], plan.segment_ios[i]));
    if (plan.strides_possible()) {
      prober.strides(prober.stride_items(data.strides, options.pairs_per_round), data.single_us, data.strides);
    }
    round_s = elapsed_s() - round_start;
    result.rounds = round;
  }

  // Second phase: multiples of the interleave the first phase shows, as many
  // pairs each as every power-of-two stride got, when the budget allows.
  if (plan.strides_possible()) {
    const auto interleave = point_interleave(data.single_us, data.strides, data.smallest_known_interleave);
    if (interleave) {
      for (uint64_t s : interleave_multiples(plan, *interleave)) data.multiples.push_back({s, {}});
      const uint32_t per_stride = static_cast<uint32_t>(data.strides.front().pair_us.size());
      // In batches of pairs_per_round per multiple, while the budget lasts.
      for (uint32_t done = 0; done < per_stride && !data.multiples.empty(); done += options.pairs_per_round) {
        const double batch_start = elapsed_s();
        prober.strides(prober.stride_items(data.multiples, options.pairs_per_round), data.single_us, data.multiples);
        const double batch_s = elapsed_s() - batch_start;
        if (elapsed_s() + batch_s > options.budget_s) break;
      }
    }
  }
  result.ios = prober.ios();
  result.elapsed_s = elapsed_s();
  result.verdict = analyse_parallelism(data, options.seed);
  return result;
}

}  // namespace ssdprobe
