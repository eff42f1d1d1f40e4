#include "probes/more_rings_probe.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <latch>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analysis/stats.h"
#include "core/error.h"
#include "core/random.h"
#include "runner/runner.h"

namespace ssdprobe {
namespace {

// The CPUs this process may run on (its affinity: taskset or a cgroup may
// narrow it).
std::vector<int> usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::vector<PlannedIo> random_reads(const ParallelismPlan& plan, Random& random, uint64_t count) {
  std::vector<PlannedIo> ios(count);
  for (auto& io : ios) io = PlannedIo{IoOp::read, plan.read_at(random.below(plan.read_slots)), plan.read_bytes};
  return ios;
}

// One ring's share of a many-ring segment.
struct RingJob {
  int cpu = 0;
  uint32_t depth = 1;
  uint32_t read_bytes = 0;
  std::vector<PlannedIo> ios;
  std::vector<uint64_t> finished_ns;
  bool ran = false;              // its ring was set up and its reads issued
  std::string setup_failure;     // why its ring could not be set up
  std::exception_ptr failure;    // an error while its reads were out
};

// Why `job`'s ring could not be made on its thread. A ring that cannot be
// set up (no other ring on this engine, io_uring or locked-memory limits
// reached with several rings) leaves the check untimed; it is not the
// run's failure.
std::string setup_failure_of(const RingJob& job, const std::exception_ptr& failure) {
  const std::string where = "a ring could not be set up on CPU " + std::to_string(job.cpu) + ": ";
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return where + e.what();
  } catch (...) {
    return where + "an unknown error";
  }
}

// A ring's thread: pinned to its CPU, it makes its ring, waits until every
// ring is ready, then runs its share. The ring is made, used and closed in
// this thread: a single-issuer ring (uring_device.cc) belongs to the thread
// that made it. Closing hands the ring's counts to the target's
// (CountingDevice), one thread at a time (`teardown`).
void run_ring(Device& target, RingJob& job, std::latch& ready, std::mutex& teardown) {
  std::unique_ptr<Device> ring;
  std::optional<ProbeRunner> runner;
  try {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(job.cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);  // best effort: unpinned still adds a submitter
    ring = target.another_ring();
    if (!ring) throw Error(ErrorCategory::unsupported, "the engine cannot open another ring on this target");
    ring->set_completion_spin(0);  // asleep, as the sweep waits
    runner.emplace(*ring, job.depth, job.read_bytes);
  } catch (...) {
    job.setup_failure = setup_failure_of(job, std::current_exception());
  }
  ready.arrive_and_wait();
  if (runner) {
    job.ran = true;
    try {
      runner->run(job.ios, &job.finished_ns);
    } catch (...) {
      job.failure = std::current_exception();
    }
  }
  runner.reset();
  const std::lock_guard lock(teardown);
  ring.reset();
}

// The IOPS of one many-ring segment, or why its rings could not be set up.
struct ManyRingsTiming {
  double iops = 0.0;
  std::string not_timed_because;
};

// `ios` reads spread over one ring per CPU in `cpus`, `queue_depth` in
// flight over all of them: their steady IOPS together. Adds the reads it
// issued to `issued`. A ring that could not be set up leaves the segment
// untimed (the others still run their share, which is counted); an error
// while reads were out is the run's.
ManyRingsTiming many_rings_segment(Device& device, const ParallelismPlan& plan, const std::vector<int>& cpus,
                                   uint32_t queue_depth, uint64_t ios, Random& random, uint64_t& issued) {
  const auto rings = static_cast<uint32_t>(cpus.size());
  std::vector<RingJob> jobs(rings);
  for (uint32_t i = 0; i < rings; ++i) {
    jobs[i].cpu = cpus[i];
    jobs[i].depth = queue_depth / rings + (i < queue_depth % rings ? 1 : 0);
    jobs[i].read_bytes = plan.read_bytes;
    jobs[i].ios = random_reads(plan, random, std::max<uint64_t>(ios / rings, jobs[i].depth));
  }
  std::latch ready(rings);
  std::mutex teardown;
  std::vector<std::thread> threads;
  ManyRingsTiming timing;
  try {
    threads.reserve(rings);
    for (auto& job : jobs) threads.emplace_back(run_ring, std::ref(device), std::ref(job), std::ref(ready), std::ref(teardown));
  } catch (const std::exception& e) {
    // No thread for a ring (a memory limit leaves no room for its stack):
    // the rings that started run their share, untimed like a ring that
    // could not be set up.
    timing.not_timed_because = std::string("a thread for another ring could not be started: ") + e.what();
    ready.count_down(static_cast<std::ptrdiff_t>(rings - threads.size()));
  }
  for (auto& thread : threads) thread.join();
  std::vector<uint64_t> finished;
  for (auto& job : jobs) {
    if (job.failure) std::rethrow_exception(job.failure);
    if (job.ran) issued += job.ios.size();
    if (!job.setup_failure.empty() && timing.not_timed_because.empty()) timing.not_timed_because = job.setup_failure;
    finished.insert(finished.end(), job.finished_ns.begin(), job.finished_ns.end());
  }
  if (timing.not_timed_because.empty()) timing.iops = steady_iops(std::move(finished), queue_depth);
  return timing;
}

double one_ring_segment(Device& device, const ParallelismPlan& plan, uint32_t queue_depth, uint64_t ios,
                        Random& random, uint64_t& issued) {
  issued += ios;
  ProbeRunner runner(device, queue_depth, plan.read_bytes);
  std::vector<uint64_t> finished;
  runner.run(random_reads(plan, random, ios), &finished);
  return steady_iops(std::move(finished), queue_depth);
}

}  // namespace

MoreRingsResult time_more_rings(Device& device, const ParallelismPlan& plan, uint32_t queue_depth, uint64_t seed) {
  MoreRingsResult result;
  MoreRingsCheck& check = result.check;
  check.queue_depth = queue_depth;
  std::vector<int> cpus = usable_cpus();
  cpus.resize(std::min<size_t>({cpus.size(), queue_depth, kMostRings}));
  if (cpus.size() < 2) {
    check.not_timed_because = queue_depth < 2 ? "one IO in flight cannot be spread over rings"
                                              : "this process may run on one CPU only";
    return result;
  }
  if (!device.opens_other_rings()) {
    check.not_timed_because = "the engine cannot open another ring on this target";
    return result;
  }
  Random random(seed ^ 0x72696e67ull);
  const uint64_t ios = segment_ios_at(queue_depth);
  std::vector<double> one, many;
  const uint64_t start_ns = device.now_ns();
  // The rings go first in the first round: rings that cannot be set up
  // then cost no one-ring segment.
  for (int round = 0; round < kMoreRingsRounds; ++round) {
    const bool many_first = round % 2 == 0;
    if (!many_first) one.push_back(one_ring_segment(device, plan, queue_depth, ios, random, result.ios));
    ManyRingsTiming timing = many_rings_segment(device, plan, cpus, queue_depth, ios, random, result.ios);
    if (!timing.not_timed_because.empty()) {
      check.not_timed_because = std::move(timing.not_timed_because);
      break;
    }
    many.push_back(timing.iops);
    if (many_first) one.push_back(one_ring_segment(device, plan, queue_depth, ios, random, result.ios));
  }
  result.elapsed_s = static_cast<double>(device.now_ns() - start_ns) / 1e9;
  result.bytes = result.ios * plan.read_bytes;
  if (!check.not_timed_because.empty()) return result;
  check.rings = static_cast<uint32_t>(cpus.size());
  check.timed = true;
  check.rounds = kMoreRingsRounds;
  check.one_ring_iops = median(one);
  check.iops = median(many);
  check.gain = check.one_ring_iops > 0.0 ? check.iops / check.one_ring_iops - 1.0 : 0.0;
  return result;
}

}  // namespace ssdprobe
