#include "probes/parallelism_probe.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/cpu_time.h"
#include "core/error.h"
#include "core/random.h"
#include "runner/runner.h"

namespace ssdprobe {
namespace {

// Share of the budget the first phase (sweep, its refinement and the
// power-of-two strides) may use; the rest is for the multiples of the
// interleave.
constexpr double kFirstPhaseShare = 0.7;
// Untimed IOs before the first segment (the engine and the drive settle).
constexpr uint64_t kWarmUpIos = 64;

template <typename T>
void shuffle(std::vector<T>& items, Random& random) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[random.below(i)]);
}

// The refined depths around the knee the segments so far show (none while
// IOPS still rise at the deepest depth).
std::vector<uint32_t> refined_around_knee(const ParallelismPlan& plan, const std::vector<DepthSegment>& segments) {
  const std::optional<uint32_t> knee = point_knee(segments);
  return knee ? knee_refinement(plan, *knee) : std::vector<uint32_t>{};
}

// Device time `rounds` segments at each refined depth would take, from the
// IOPS of the swept depth just below each one: a refined depth reaches more
// than that, so this errs long.
double refinement_s(const std::vector<DepthSegment>& segments, const std::vector<uint32_t>& refined, int rounds) {
  const std::vector<DepthSummary> depths = summarize_depths(segments);
  double seconds = 0.0;
  for (uint32_t d : refined) {
    double iops = 0.0;
    for (const auto& swept : depths) {
      if (swept.queue_depth < d) iops = swept.iops;
    }
    if (iops > 0.0) seconds += static_cast<double>(segment_ios_at(d)) / iops;
  }
  return seconds * rounds;
}

// Adds what a runner issued to a total when the runner goes, also when an IO
// failed: the bytes written before a failure are wear the run must report.
class IssuedBytes {
 public:
  IssuedBytes(const ProbeRunner& runner, uint64_t& total) : runner_(runner), total_(total) {}
  ~IssuedBytes() { total_ += runner_.bytes_issued(); }
  IssuedBytes(const IssuedBytes&) = delete;
  IssuedBytes& operator=(const IssuedBytes&) = delete;

 private:
  const ProbeRunner& runner_;
  uint64_t& total_;
};

class Prober {
 public:
  Prober(Device& device, const ParallelismPlan& plan, const ParallelismProbeOptions& options)
      : device_(device), plan_(plan), op_(options.op), seed_(options.seed), random_(options.seed ^ 0x7061726cull) {}

  DepthSegment segment(uint32_t depth, uint64_t ios) {
    ProbeRunner runner(device_, depth, plan_.read_bytes);
    const IssuedBytes counted(runner, bytes_issued_);
    payload(runner);
    std::vector<PlannedIo> plan(ios);
    for (auto& io : plan) io = checked(plan_.read_at(random_.below(plan_.read_slots)));
    std::vector<uint64_t> finished;
    DepthSegment s;
    s.queue_depth = depth;
    // How busy the host was (analysis/host_bound.h): on a real engine only,
    // whose clock is the host's.
    std::optional<CpuStopwatch> host;
    if (device_.uses_io_uring()) host.emplace();
    s.latency_us = runner.run(plan, &finished);
    if (host) {
      s.host_busy = host->busy_share();
      s.host_waited = host->waited_share();
    }
    s.iops = steady_iops(finished, depth);
    ios_ += ios;
    return s;
  }

  void warm_up() {
    ProbeRunner runner(device_, std::min<uint32_t>(8, device_.limits().max_queue_depth), plan_.read_bytes);
    const IssuedBytes counted(runner, bytes_issued_);
    payload(runner);
    std::vector<PlannedIo> plan(kWarmUpIos);
    for (auto& io : plan) io = checked(plan_.read_at(random_.below(plan_.read_slots)));
    runner.run(plan);
  }

  // Lone IOs (stride 0 in `items`) and pairs, in the order given.
  void strides(const std::vector<uint64_t>& items, std::vector<double>& single,
               std::vector<StrideSample>& samples) {
    ProbeRunner runner(device_, 2, plan_.read_bytes);
    const IssuedBytes counted(runner, bytes_issued_);
    payload(runner);
    for (uint64_t stride : items) {
      const uint64_t base = plan_.base_at(random_.below(plan_.base_count));
      if (stride == 0) {
        const PlannedIo io = checked(base);
        single.push_back(runner.run(std::span<const PlannedIo>(&io, 1)).front());
        ios_ += 1;
        continue;
      }
      const PlannedIo pair[2] = {checked(base), checked(base + stride)};
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
  uint64_t bytes_issued() const { return bytes_issued_; }

 private:
  // Writes carry pseudo-random bytes (what they overwrite is restored by
  // the write session afterwards).
  void payload(ProbeRunner& runner) const {
    if (op_ == IoOp::write) runner.fill_buffers(seed_);
  }

  // One IO of the probe at `offset`. The plan keeps every address inside
  // its region by construction; a write is checked again here because the
  // region is all that the write session saved and will restore.
  PlannedIo checked(uint64_t offset) const {
    if (!plan_.inside(offset, plan_.read_bytes)) {
      throw Error(ErrorCategory::internal,
                  fmt::format("parallelism probe: {} of {} B at {} lies outside its region {}..{}", io_noun(op_),
                              plan_.read_bytes, offset, plan_.region_begin, plan_.region_end));
    }
    return PlannedIo{op_, offset, plan_.read_bytes};
  }

  Device& device_;
  const ParallelismPlan& plan_;
  IoOp op_;
  uint64_t seed_;
  Random random_;
  uint64_t ios_ = 0;
  uint64_t bytes_issued_ = 0;  // every runner's, warm-up and a failed segment included
};

// What the phases of one run share: the prober, the clock since the start,
// the first phase's share of the budget and the byte cap.
struct ProbeRun {
  Device& device;
  const ParallelismPlan& plan;
  const ParallelismProbeOptions& options;
  Prober& prober;
  uint64_t start_ns = 0;
  double first_phase_s = 0.0;
  size_t swept_depths = 0;  // plan.depths the first round reached (all of them until it has run)

  double elapsed_s() const { return static_cast<double>(device.now_ns() - start_ns) / 1e9; }

  // The byte cap (writes: wear) is checked before every round and batch,
  // whose IO counts are known before they run.
  bool within_cap(uint64_t next_ios) const {
    return options.max_bytes == 0 || (kWarmUpIos + prober.ios() + next_ios) * plan.read_bytes <= options.max_bytes;
  }
};

// IOs of one round of the sweep: a segment at each of the first `depths`
// depths and the stride pairs.
uint64_t sweep_round_ios(const ParallelismPlan& plan, const ParallelismProbeOptions& options, size_t depths) {
  uint64_t round_ios = 0;
  for (size_t i = 0; i < depths; ++i) round_ios += plan.segment_ios[i];
  if (plan.strides_possible()) round_ios += options.pairs_per_round * (2 * plan.strides.size() + 1);
  return round_ios;
}

// The first round: a segment at each depth in ascending order, until IOPS
// level off (sweep_levelled_off) or the depths run out; the later rounds
// time only the depths it reached. False when --budget ran out inside it:
// the first round always starts, but on a drive slow enough to spend the
// whole budget inside it (slow writes), it stops there rather than run
// past --budget.
bool climb_depths(ProbeRun& run, ParallelismData& data) {
  std::vector<double> iops;
  for (size_t i = 0; i < run.plan.depths.size(); ++i) {
    if (run.elapsed_s() > run.options.budget_s) {
      data.first_round_cut = true;
      return false;
    }
    data.segments.push_back(run.prober.segment(run.plan.depths[i], run.plan.segment_ios[i]));
    iops.push_back(data.segments.back().iops);
    run.swept_depths = i + 1;
    if (i + 1 < run.plan.depths.size() && sweep_levelled_off(iops)) {
      data.levelled_off_at = run.plan.depths[i];
      break;
    }
  }
  return true;
}

// One round of the sweep: the first climbs the depths; the later ones time
// a segment at every depth it reached, in shuffled order (drift cannot
// favour a depth), until the knee has settled. Then the stride pairs.
// False when --budget ran out inside the first round.
bool sweep_round(ProbeRun& run, ParallelismData& data, int round, bool time_depths) {
  if (round == 1) {
    if (!climb_depths(run, data)) return false;
  } else if (time_depths) {
    std::vector<size_t> order(run.swept_depths);
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    shuffle(order, run.prober.random());
    for (size_t i : order) data.segments.push_back(run.prober.segment(run.plan.depths[i], run.plan.segment_ios[i]));
  }
  if (run.plan.strides_possible()) {
    run.prober.strides(run.prober.stride_items(data.strides, run.options.pairs_per_round), data.single_us,
                       data.strides);
  }
  return true;
}

// Rounds of the sweep until options.rounds are done or the first phase's
// share of the budget (less the refinement's room) or the byte cap is spent.
// Once the knee has settled (after at least kMinDepthSegments rounds), the
// rounds left time only the stride pairs: their verdicts need every pair.
void sweep(ProbeRun& run, ParallelismProbeResult& result) {
  ParallelismData& data = result.data;
  double round_s = 0.0;
  bool settled = false;
  for (int round = 1; round <= run.options.rounds; ++round) {
    const uint64_t round_ios = sweep_round_ios(run.plan, run.options, settled ? 0 : run.swept_depths);
    // Stop before a round that would not fit (the first always runs); past
    // the rounds the knee needs, also keep room to refine around it with as
    // many segments per refined depth as the swept depths will have had.
    const int depth_rounds = result.rounds + (settled ? 0 : 1);
    const double reserve =
        round > static_cast<int>(kMinDepthSegments)
            ? refinement_s(data.segments, refined_around_knee(run.plan, data.segments), depth_rounds)
            : 0.0;
    if (round > 1 && run.elapsed_s() + round_s + reserve > run.first_phase_s) break;
    if (!run.within_cap(round_ios)) break;
    const double round_start = run.elapsed_s();
    if (!sweep_round(run, data, round, !settled)) break;  // rounds stays 0: no whole round ran
    round_s = run.elapsed_s() - round_start;
    if (settled) continue;  // a round of stride pairs alone
    result.rounds = round;
    settled = round >= static_cast<int>(kMinDepthSegments) && knee_settled(data.segments, run.options.seed);
  }
}

// Refinement: depths half an octave from the knee the powers of two
// show, one segment each per round, as many rounds as the sweep had, in
// what is left of the first phase's share. Not after fewer rounds than
// the knee needs: it could not be resampled anyway.
void refine_depths_around_knee(ProbeRun& run, ParallelismProbeResult& result) {
  ParallelismData& data = result.data;
  if (result.rounds >= static_cast<int>(kMinDepthSegments)) {
    result.refined_depths = refined_around_knee(run.plan, data.segments);
  }
  double refine_round_s = refinement_s(data.segments, result.refined_depths, 1);
  uint64_t refine_round_ios = 0;
  for (uint32_t d : result.refined_depths) refine_round_ios += segment_ios_at(d);
  for (int round = 1; round <= result.rounds && !result.refined_depths.empty(); ++round) {
    if (run.elapsed_s() + refine_round_s > run.first_phase_s || !run.within_cap(refine_round_ios)) break;
    const double round_start = run.elapsed_s();
    std::vector<uint32_t> order = result.refined_depths;
    shuffle(order, run.prober.random());
    for (uint32_t d : order) data.segments.push_back(run.prober.segment(d, segment_ios_at(d)));
    refine_round_s = run.elapsed_s() - round_start;
    result.refinement_rounds = round;
  }
  if (result.refinement_rounds == 0) result.refined_depths.clear();  // planned, never timed
}

// Second phase: multiples of the interleave the first phase shows, as many
// pairs each as every power-of-two stride got, when the budget allows.
void time_multiples(ProbeRun& run, ParallelismData& data) {
  const auto interleave = point_interleave(data.single_us, data.strides, data.smallest_known_interleave);
  if (!interleave) return;
  for (uint64_t s : interleave_multiples(run.plan, *interleave)) data.multiples.push_back({s, {}});
  const uint32_t per_stride = static_cast<uint32_t>(data.strides.front().pair_us.size());
  // In batches of pairs_per_round per multiple, while the budget lasts.
  const uint64_t batch_ios = run.options.pairs_per_round * (2 * data.multiples.size() + 1);
  for (uint32_t done = 0; done < per_stride && !data.multiples.empty(); done += run.options.pairs_per_round) {
    if (!run.within_cap(batch_ios)) break;
    const double batch_start = run.elapsed_s();
    run.prober.strides(run.prober.stride_items(data.multiples, run.options.pairs_per_round), data.single_us,
                       data.multiples);
    const double batch_s = run.elapsed_s() - batch_start;
    if (run.elapsed_s() + batch_s > run.options.budget_s) break;
  }
}

}  // namespace

ParallelismProbeResult run_parallelism_probe(Device& device, const ParallelismPlan& plan,
                                             const ParallelismProbeOptions& options) {
  ParallelismProbeResult result;
  result.plan = plan;
  ParallelismData& data = result.data;
  data.op = options.op;
  data.read_bytes = plan.read_bytes;
  data.largest_depth_allowed = device.limits().max_queue_depth;
  if (plan.smallest_stride_is_page) data.smallest_known_interleave = plan.strides.front();
  if (options.op == IoOp::write && !device.writable()) {
    throw Error(ErrorCategory::refused, "the parallelism probe was asked to write to a device opened read-only");
  }
  if (device.limits().max_queue_depth < 2) {
    result.verdict = parallelism_not_measured("the IO engine keeps only one IO in flight (psync): there is no queue "
                                              "depth to sweep and no concurrent pair to time", options.op);
    return result;
  }
  const uint64_t start_ns = device.now_ns();
  Prober prober(device, plan, options);
  ProbeRun run{device, plan, options, prober, start_ns,
               options.budget_s * (plan.strides_possible() ? kFirstPhaseShare : 1.0), plan.depths.size()};
  try {
    prober.warm_up();
    if (plan.strides_possible()) {
      for (uint64_t s : plan.strides) data.strides.push_back({s, {}});
    }
    sweep(run, result);
    refine_depths_around_knee(run, result);
    if (plan.strides_possible()) time_multiples(run, data);
  } catch (const IoFailed& e) {
    throw ParallelismProbeFailed(e.what(), prober.bytes_issued());
  }
  result.ios = prober.ios();
  result.bytes_issued = prober.bytes_issued();
  result.elapsed_s = run.elapsed_s();
  result.verdict = analyse_parallelism(data, options.seed);
  return result;
}

}  // namespace ssdprobe
