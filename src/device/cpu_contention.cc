#include "device/cpu_contention.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>

namespace ssdprobe {

CpuContention::CpuContention(std::string loadavg, unsigned cpus) : path_(std::move(loadavg)), cpus_(cpus) {
  if (cpus_ == 0) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpus_ = online > 0 ? static_cast<unsigned>(online) : 1;
  }
}

bool CpuContention::others_fill_cpus(uint64_t now_ns) {
  if (!readable_) return false;
  if (checked_ns_ && now_ns - *checked_ns_ < kRecheckNs) return full_;
  checked_ns_ = now_ns;
  char text[128] = {};
  FILE* file = std::fopen(path_.c_str(), "re");
  const size_t n = file ? std::fread(text, 1, sizeof text - 1, file) : 0;
  if (file) std::fclose(file);
  const std::optional<unsigned> runnable = parse_runnable_tasks(std::string_view(text, n));
  if (!runnable) {
    readable_ = false;
    return full_ = false;
  }
  // This thread was running while it read: the others are the rest.
  const unsigned others = *runnable > 0 ? *runnable - 1 : 0;
  return full_ = others >= cpus_;
}

std::optional<unsigned> parse_runnable_tasks(std::string_view loadavg) {
  // Three load averages, then "running/total".
  size_t at = 0;
  for (int field = 0; field < 3; ++field) {
    at = loadavg.find(' ', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  const size_t slash = loadavg.find('/', at);
  if (slash == std::string_view::npos || slash == at) return std::nullopt;
  unsigned running = 0;
  const auto [end, error] = std::from_chars(loadavg.data() + at, loadavg.data() + slash, running);
  if (error != std::errc() || end != loadavg.data() + slash) return std::nullopt;
  return running;
}

}  // namespace ssdprobe
