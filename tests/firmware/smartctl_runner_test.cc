// Running smartctl: arguments, captured output, exit status, a missing
// binary and a hung one, with small shell scripts standing in for smartctl.
#include "firmware/smartctl_runner.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>

#include "firmware_test_util.h"

using namespace ssdprobe;
using firmware_test::TempTree;

namespace {

std::string script(const TempTree& tree, const std::string& name, const std::string& body) {
  const auto path = tree.root() / name;
  tree.write(name, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
  return path.string();
}

}  // namespace

TEST_CASE("smartctl runner: passes -j -a DEVICE and returns stdout and the exit status") {
  TempTree tree;
  const auto program = script(tree, "fake-smartctl",
                              "printf '{\"argv\": [\"%s\", \"%s\", \"%s\"]}' \"$1\" \"$2\" \"$3\"\n"
                              "echo 'noise' >&2\nexit 4\n");
  const SmartctlRun run = run_smartctl("/dev/sda", std::chrono::seconds(10), program);
  CHECK(run.ran);
  CHECK(run.exit_status == 4);
  CHECK_FALSE(run.timed_out);
  CHECK(run.output == R"({"argv": ["-j", "-a", "/dev/sda"]})");
  CHECK(run.note.empty());
}

TEST_CASE("smartctl runner: output larger than a pipe buffer is read whole") {
  TempTree tree;
  const auto program = script(tree, "big", "head -c 300000 /dev/zero | tr '\\000' x\n");
  const SmartctlRun run = run_smartctl("/dev/sda", std::chrono::seconds(10), program);
  CHECK(run.ran);
  CHECK(run.exit_status == 0);
  CHECK(run.output.size() == 300000);
}

TEST_CASE("smartctl runner: a missing binary is a note, not an error") {
  const SmartctlRun run = run_smartctl("/dev/sda", std::chrono::seconds(5), "ssdprobe-test-no-such-smartctl");
  CHECK_FALSE(run.ran);
  CHECK(run.note == "ssdprobe-test-no-such-smartctl not installed (not found in PATH)");
}

TEST_CASE("smartctl runner: a hung smartctl is killed after the timeout") {
  TempTree tree;
  const auto program = script(tree, "hang", "echo partial\nexec sleep 30\n");
  const auto start = std::chrono::steady_clock::now();
  const SmartctlRun run = run_smartctl("/dev/sda", std::chrono::milliseconds(300), program);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK_FALSE(run.ran);
  CHECK(run.timed_out);
  CHECK(run.output == "partial\n");
  CHECK(run.note.find("(timeout 300 ms)") != std::string::npos);
}
