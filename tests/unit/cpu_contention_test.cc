// When the engine may poll (the host's runnable tasks against its CPUs,
// device/cpu_contention.h) and why it slept where it did.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "device/completion_spin.h"
#include "device/cpu_contention.h"
#include "device/io_counts.h"

using namespace ssdprobe;

namespace {

// A /proc/loadavg of our own, rewritten as a test needs.
struct LoadavgFile {
  std::string path = "cpu_contention_test.loadavg";
  void write(const std::string& text) const { std::ofstream(path) << text; }
  ~LoadavgFile() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("the runnable tasks are read from /proc/loadavg's fourth field") {
  CHECK(parse_runnable_tasks("0.52 0.58 0.59 3/467 12345\n") == 3u);
  CHECK(parse_runnable_tasks("12.00 9.10 4.33 17/1024 99") == 17u);
  CHECK_FALSE(parse_runnable_tasks(""));
  CHECK_FALSE(parse_runnable_tasks("0.52 0.58 0.59"));
  CHECK_FALSE(parse_runnable_tasks("0.52 0.58 0.59 x/467 1"));
  CHECK_FALSE(parse_runnable_tasks("0.52 0.58 0.59 /467 1"));
}

TEST_CASE("polling stops while other runnable tasks fill every CPU, and resumes when one is free") {
  LoadavgFile file;
  file.write("1.00 1.00 1.00 2/300 1\n");  // this reader and one other, two CPUs
  CpuContention contention(file.path, 2);
  CHECK_FALSE(contention.others_fill_cpus(1'000'000'000));
  file.write("3.00 3.00 3.00 3/300 1\n");  // two others on two CPUs
  // Not read again within the recheck interval: the last reading stands.
  CHECK_FALSE(contention.others_fill_cpus(1'000'000'000 + CpuContention::kRecheckNs / 2));
  CHECK(contention.others_fill_cpus(1'000'000'000 + CpuContention::kRecheckNs));
  file.write("1.00 1.00 1.00 1/300 1\n");
  CHECK_FALSE(contention.others_fill_cpus(1'000'000'000 + 2 * CpuContention::kRecheckNs));
}

TEST_CASE("an unreadable count never stops polling") {
  CpuContention missing("/nonexistent/loadavg", 1);
  CHECK_FALSE(missing.others_fill_cpus(1));
  LoadavgFile file;
  file.write("garbage\n");
  CpuContention garbled(file.path, 1);
  CHECK_FALSE(garbled.others_fill_cpus(1));
}

TEST_CASE("a wait that may not poll says why, the queue first and the host's CPUs last") {
  LoadavgFile file;
  file.write("3.00 3.00 3.00 3/300 1\n");  // two others on two CPUs: busy
  CpuContention busy(file.path, 2);
  const uint64_t limit = 200'000, now = 1'000'000'000;
  const unsigned deep = CompletionSpin::kMaxInFlight + 1, shallow = CompletionSpin::kMaxInFlight;
  CHECK(reason_not_to_poll(deep, 0, limit, busy, now) == SleepReason::deep_queue);
  CHECK(reason_not_to_poll(shallow, limit + 1, limit, busy, now) == SleepReason::slow_device);
  CHECK(reason_not_to_poll(shallow, limit, limit, busy, now) == SleepReason::cpus_busy);
  file.write("1.00 1.00 1.00 1/300 1\n");
  CpuContention free_host(file.path, 2);
  CHECK_FALSE(reason_not_to_poll(1, 0, limit, free_host, now));
}

TEST_CASE("sleeps are counted under their reasons, and phases' counts subtract and add reason by reason") {
  WaitCounts before;
  before.count_sleep(SleepReason::cpus_busy);
  WaitCounts after = before;
  after.count_sleep(SleepReason::deep_queue);
  after.count_sleep(SleepReason::deep_queue);
  after.count_sleep(SleepReason::timed_out);
  ++after.polled;
  const WaitCounts phase = wait_counts_between(before, after);
  CHECK(phase.slept() == 3);
  CHECK(phase.polled == 1);
  CHECK(phase.slept_for(SleepReason::deep_queue) == 2);
  CHECK(phase.slept_for(SleepReason::timed_out) == 1);
  CHECK(phase.slept_for(SleepReason::cpus_busy) == 0);
  WaitCounts run = before;
  add_waits(run, phase);
  CHECK(run.slept() == 4);
  CHECK(run.slept_for(SleepReason::cpus_busy) == 1);
  CHECK(run.slept_for(SleepReason::deep_queue) == 2);
  std::set<std::string> names;  // the document's keys: one per reason
  for (const SleepReason reason : kSleepReasons) names.insert(sleep_reason_name(reason));
  CHECK(names == std::set<std::string>{"spin_off", "deep_queue", "slow_device", "cpus_busy", "timed_out"});
}
