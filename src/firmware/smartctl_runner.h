// Runs `smartctl -j -a DEVICE` and captures its standard output. smartctl is
// optional: a missing binary, a failure to start it or a timeout is reported
// in the result (ran == false, note says why), never thrown, so a run goes on
// without it. smartctl's own exit status is a bit mask that the JSON repeats
// (smartctl_json.h); it is returned as is.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace ssdprobe {

struct SmartctlRun {
  bool ran = false;       // the process started and exited by itself
  int exit_status = -1;   // its exit code when ran
  bool timed_out = false; // killed (SIGKILL) after the timeout
  std::string output;     // standard output (standard error is discarded)
  std::string note;       // why it did not run: "smartctl not installed (not found in PATH)"
};

// Runs `program -j -a device` found through PATH (posix_spawnp), with stdin
// and stderr on /dev/null, and kills it after `timeout`. Blocks until it has
// exited and been reaped.
SmartctlRun run_smartctl(const std::string& device, std::chrono::milliseconds timeout = std::chrono::seconds(30),
                         const std::string& program = "smartctl");

}  // namespace ssdprobe
