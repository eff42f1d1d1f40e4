#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled && ::isatty(STDERR_FILENO)) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(const GridProbeProgress& p) {
  std::string leading = "no level yet";
  if (p.verdict && p.verdict->leading) {
    leading = fmt::format("leading {} ({:.0f}% support)", format_size(*p.verdict->leading),
                          100.0 * p.verdict->leading_support);
  }
  message(fmt::format("{} grid: round {}, {} IOs, {:.1f}/{:.0f} s, {}", p.name, p.round, p.ios, p.elapsed_s,
                      p.budget_s, leading));
}

void ProgressLine::message(const std::string& text) {
  if (!enabled_) return;
  fmt::print(stderr, "\r\033[K{}", text);
  std::fflush(stderr);
  dirty_ = true;
}

void ProgressLine::finish() {
  if (!dirty_) return;
  fmt::print(stderr, "\n");
  dirty_ = false;
}

}  // namespace ssdprobe
