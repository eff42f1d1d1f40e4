// The host's readings a run records beside its IO (core/cpu_time.h): the
// CPU a stopwatch's owner used, and how long its thread waited for a CPU
// while it had work, which on a busy host says other work held the cores
// (analysis/host_bound.h uses both).
#include <catch2/catch.hpp>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/cpu_time.h"

using namespace ssdprobe;

namespace {

// Spins on the calling thread for `how_long` of wall time.
void spin_for(std::chrono::milliseconds how_long) {
  const auto until = std::chrono::steady_clock::now() + how_long;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Pins the calling thread to `cpu`; false where that is not allowed.
bool pin_to(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

int first_usable_cpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) return cpu;
  }
  return -1;
}

}  // namespace

TEST_CASE("a thread that spins alone on a CPU is busy, a thread asleep is not") {
  const CpuStopwatch spinning;
  spin_for(std::chrono::milliseconds(100));
  CHECK(spinning.busy_share() > 0.1);  // about 1.0 alone; a share of a CPU however crowded
  const CpuStopwatch sleeping;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(sleeping.busy_share() < 0.05);
  CHECK(sleeping.wall_s() >= 0.1);
}

TEST_CASE("a thread that shares its CPU with another busy thread waits for it") {
  if (!thread_runqueue_wait_seconds()) {
    WARN("this kernel keeps no run-queue wait (/proc/thread-self/schedstat): nothing to check");
    return;
  }
  const int cpu = first_usable_cpu();
  REQUIRE(cpu >= 0);
  std::atomic<bool> stop{false};
  std::atomic<bool> other_pinned{false};
  // Two runnable threads on one CPU: the scheduler gives each about half,
  // so each waits for the other about half of the time.
  std::thread other([&] {
    other_pinned = pin_to(cpu);
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  cpu_set_t saved;
  REQUIRE(pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0);
  const bool pinned = pin_to(cpu);
  const CpuStopwatch sharing;
  spin_for(std::chrono::milliseconds(300));
  const std::optional<double> waited = sharing.waited_share();
  stop = true;
  other.join();
  pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
  if (!pinned || !other_pinned) {
    WARN("threads may not be pinned here: nothing to check");
    return;
  }
  REQUIRE(waited);
  CHECK(*waited > 0.2);
  CHECK(*waited < 1.0);
}
