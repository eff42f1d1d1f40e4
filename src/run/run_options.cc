#include "run/run_options.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {

std::vector<uint64_t> parse_starts(const std::string& text) {
  std::vector<uint64_t> starts;
  if (text.empty()) return starts;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t comma = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, comma - begin);
    uint64_t start = 0;
    try {
      start = parse_size(item);
    } catch (const Error&) {
      throw Error(ErrorCategory::usage, fmt::format("invalid --at item '{}': expected a byte offset such as 32256, "
                                                    "1536, 4k or 1M", item));
    }
    // Each offset once ("4096,4k" is one offset): a repeat would be audited
    // and timed again and exported as a second, identical Prometheus series,
    // which node_exporter refuses.
    if (std::find(starts.begin(), starts.end(), start) == starts.end()) starts.push_back(start);
    begin = comma + 1;
  }
  return starts;
}

}  // namespace ssdprobe
