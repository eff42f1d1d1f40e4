// When the engine may poll: the host's runnable tasks against its CPUs
// (device/cpu_contention.h).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "device/cpu_contention.h"

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
