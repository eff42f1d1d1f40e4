// What a run tells the person watching it while it works: grid rounds,
// one-line messages, warnings. The run layer only calls this interface; the
// command layer decides how it looks (cli/progress.h draws one line on a
// terminal) and tests can record it.
#pragma once

#include <string>

#include "probes/grid_probe.h"

namespace ssdprobe {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void grid_progress(const GridProbeProgress& progress) = 0;
  virtual void message(const std::string& text) = 0;
  // Ends any progress line first. Must not throw: a --write run warns on
  // its way to the restore.
  virtual void warn(const std::string& text) noexcept = 0;
  virtual void finish() noexcept = 0;
};

// Says nothing (tests, and runs nobody watches).
class SilentObserver final : public RunObserver {
 public:
  void grid_progress(const GridProbeProgress&) override {}
  void message(const std::string&) override {}
  void warn(const std::string&) noexcept override {}
  void finish() noexcept override {}
};

}  // namespace ssdprobe
