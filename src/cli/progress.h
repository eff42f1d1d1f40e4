// Progress on standard error, only when it is a terminal and not --quiet:
// one line rewritten in place. Never throws: a terminal that hung up (an SSH
// session that dropped) must not stop a --write run before its restore
// (core/output.h print_quietly).
#pragma once

#include <string>

#include "probes/grid_probe.h"

namespace ssdprobe {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  void update(const GridProbeProgress& progress);
  void message(const std::string& text);  // shown through printable(): no raw control characters
  void finish() noexcept;
  // Ends the progress line, then prints "ssdprobe: warning: TEXT" (also when
  // progress is off: --quiet silences progress, not warnings).
  void warn(const std::string& text) noexcept;
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  bool dirty_ = false;
};

}  // namespace ssdprobe
