#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <fmt/format.h>

#include "core/output.h"
#include "core/units.h"

namespace ssdprobe {

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled && ::isatty(STDERR_FILENO)) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::grid_progress(const GridProbeProgress& p) {
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
  print_quietly(stderr, "\r\033[K" + printable(text));
  dirty_ = true;
}

void ProgressLine::finish() noexcept {
  if (!dirty_) return;
  dirty_ = false;
  print_quietly(stderr, "\n");
}

void ProgressLine::warn(const std::string& text) noexcept {
  finish();
  print_warning(text);
}

}  // namespace ssdprobe
