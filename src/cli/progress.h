// Progress on standard error, only when it is a terminal and not --quiet:
// one line rewritten in place. Never throws: a terminal that hung up (an SSH
// session that dropped) must not stop a --write run before its restore
// (core/output.h print_quietly).
#pragma once

#include <string>

#include "run/run_observer.h"

namespace ssdprobe {

class ProgressLine final : public RunObserver {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine() override;
  void grid_progress(const GridProbeProgress& progress) override;
  void message(const std::string& text) override;  // shown through printable(): no raw control characters
  void finish() noexcept override;
  // Ends the progress line, then prints "ssdprobe: warning: TEXT" (also when
  // progress is off: --quiet silences progress, not warnings).
  void warn(const std::string& text) noexcept override;
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  bool dirty_ = false;
};

}  // namespace ssdprobe
