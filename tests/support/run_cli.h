// Runs the whole command line in-process, as `ssdprobe ARGS...` would from a
// shell, and returns its exit code: tests of what a user sees (result
// documents, refusals) without spawning the binary.
#pragma once

#include <string>
#include <vector>

#include "cli/commands.h"

namespace test_support {

inline int run_ssdprobe(std::vector<std::string> args) {
  args.insert(args.begin(), "ssdprobe");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return ssdprobe::ssdprobe_main(static_cast<int>(argv.size()), argv.data());
}

}  // namespace test_support
