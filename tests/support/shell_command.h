// Runs a shell command from a test (the real mkfs, sfdisk, pvcreate tools
// that make the images decoders are checked against).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <utility>

namespace test_support {

// Runs `command` through sh, with the sbin directories on PATH (where the
// mkfs tools live); returns its exit status (-1 when it did not exit) and
// its standard output and error together.
inline std::pair<int, std::string> run_shell(const std::string& command) {
  const std::string line = "PATH=\"$PATH:/usr/sbin:/sbin\"; " + command + " 2>&1";
  FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  std::array<char, 4096> buffer{};
  while (size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace test_support
