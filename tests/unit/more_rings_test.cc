// More rings (probes/more_rings_probe.h) on the io_uring engine with no
// device behind it (NOPs): the rings are made on their own threads, every
// read they issue is counted as the run's own IO, and a process that may
// use one CPU, a depth of 1 or an engine with no other ring is not timed
// and says why. What the rings gain is a timing, left to the benchmarks and
// the device test (tests/device/host_bound.sh).
#include <catch2/catch.hpp>
#include <sched.h>

#include <atomic>

#include "core/error.h"
#include "device/counting_device.h"
#include "device/uring_device.h"
#include "probes/more_rings_probe.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kSize = 1ull << 30;

ParallelismPlan nop_plan() {
  ParallelismPlanInput input;
  input.target_size = kSize;
  input.max_queue_depth = 256;
  return plan_parallelism(input);
}

// The NOP engine behind a counter, as a run wraps its engine; none where
// io_uring is not available here.
std::unique_ptr<CountingDevice> counted_nops() {
  DeviceLimits limits;
  limits.size_bytes = kSize;
  try {
    return std::make_unique<CountingDevice>(UringDevice::without_device(limits));
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::unsupported) throw;
    WARN("io_uring is not available here: " << e.what());
    return nullptr;
  }
}

size_t usable_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  return static_cast<size_t>(CPU_COUNT(&set));
}

// Narrows this process to its first usable CPU while it lives.
class OneCpu {
 public:
  OneCpu() {
    REQUIRE(sched_getaffinity(0, sizeof saved_, &saved_) == 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &saved_)) {
        CPU_SET(cpu, &one);
        break;
      }
    }
    REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
  }
  ~OneCpu() { sched_setaffinity(0, sizeof saved_, &saved_); }

 private:
  cpu_set_t saved_;
};

// Every Device call a probe needs, and no other ring (or, below, rings
// that cannot all be set up).
class OneRingOnly : public Device {
 public:
  explicit OneRingOnly(uint64_t size = 0) { limits_.size_bytes = size; }
  const DeviceLimits& limits() const override { return limits_; }
  std::string engine_description() const override { return "one ring only"; }
  bool writable() const override { return false; }
  void attach_buffers(std::span<AlignedBuffer>) override {}
  void submit(const IoRequest&) override { FAIL("nothing is to be read when no other ring can be opened"); }
  IoCompletion wait_one() override { return {}; }
  uint64_t now_ns() override { return 0; }

 private:
  DeviceLimits limits_{};
};

// Opens one other ring (on NOPs), then fails as io_uring_queue_init does
// when the locked-memory limit is reached.
class SecondRingFails : public OneRingOnly {
 public:
  SecondRingFails() : OneRingOnly(kSize) {}
  bool opens_other_rings() const override { return true; }
  std::unique_ptr<Device> another_ring() override {
    if (opened_.fetch_add(1) > 0) throw Error(ErrorCategory::unsupported, "io_uring_queue_init: Cannot allocate memory");
    DeviceLimits limits;
    limits.size_bytes = kSize;
    return UringDevice::without_device(limits);
  }

 private:
  std::atomic<int> opened_{0};
};

}  // namespace

TEST_CASE("more rings: one per usable CPU, each read counted as the run's own") {
  auto device = counted_nops();
  if (!device) return;
  if (usable_cpu_count() < 2) {
    WARN("this process may use one CPU: the many-ring case is not tried");
    return;
  }
  const ParallelismPlan plan = nop_plan();
  const MoreRingsResult result = time_more_rings(*device, plan, 32, 7);
  REQUIRE(result.check.timed);
  CHECK(result.check.not_timed_because.empty());
  CHECK(result.check.rings == std::min<size_t>({usable_cpu_count(), 32, kMostRings}));
  CHECK(result.check.queue_depth == 32);
  CHECK(result.check.rounds == kMoreRingsRounds);
  CHECK(result.check.one_ring_iops > 0.0);
  CHECK(result.check.iops > 0.0);
  CHECK(result.check.gain == Approx(result.check.iops / result.check.one_ring_iops - 1.0));
  // Each round: one segment on one ring and one spread over the rings.
  CHECK(result.ios >= 2 * kMoreRingsRounds * segment_ios_at(32) - kMoreRingsRounds * kMostRings);
  CHECK(result.bytes == result.ios * plan.read_bytes);
  // The other rings' reads reach the run's counts (run/other_io.h would
  // otherwise take them for someone else's).
  CHECK(device->counts().reads == result.ios);
  CHECK(device->counts().read_bytes == result.bytes);
  CHECK(device->counts().writes == 0);
}

TEST_CASE("more rings are not tried on one CPU, at depth 1, or where the engine has no other ring") {
  const ParallelismPlan plan = nop_plan();
  SECTION("one usable CPU") {
    auto device = counted_nops();
    if (!device) return;
    const OneCpu narrowed;
    const MoreRingsResult result = time_more_rings(*device, plan, 32, 7);
    CHECK_FALSE(result.check.timed);
    CHECK(result.check.not_timed_because == "this process may run on one CPU only");
    CHECK(device->counts().reads == 0);
  }
  SECTION("one IO in flight") {
    auto device = counted_nops();
    if (!device) return;
    const MoreRingsResult result = time_more_rings(*device, plan, 1, 7);
    CHECK_FALSE(result.check.timed);
    CHECK(result.check.not_timed_because == "one IO in flight cannot be spread over rings");
  }
  SECTION("an engine with no other ring") {
    if (usable_cpu_count() < 2) return;
    OneRingOnly device;
    const MoreRingsResult result = time_more_rings(device, plan, 32, 7);
    CHECK_FALSE(result.check.timed);
    CHECK(result.check.not_timed_because == "the engine cannot open another ring on this target");
    CHECK(result.ios == 0);
  }
}

TEST_CASE("a ring that cannot be set up leaves more rings untried, not the run failed") {
  if (usable_cpu_count() < 2) return;
  try {
    DeviceLimits limits;
    limits.size_bytes = kSize;
    UringDevice::without_device(limits);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::unsupported) throw;
    WARN("io_uring is not available here: " << e.what());
    return;
  }
  SecondRingFails device;
  MoreRingsResult result;
  REQUIRE_NOTHROW(result = time_more_rings(device, nop_plan(), 32, 7));
  CHECK_FALSE(result.check.timed);
  CHECK_THAT(result.check.not_timed_because, Catch::StartsWith("a ring could not be set up on CPU "));
  CHECK_THAT(result.check.not_timed_because, Catch::EndsWith(": io_uring_queue_init: Cannot allocate memory"));
  // The ring that was set up ran its share, and those reads are the run's;
  // no one-ring segment was spent before the rings failed.
  CHECK(result.ios > 0);
  CHECK(result.ios <= segment_ios_at(32));
}
