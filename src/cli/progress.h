// Progress on standard error, only when it is a terminal and not --quiet:
// one line rewritten in place.
#pragma once

#include <string>

#include "probes/grid_probe.h"

namespace ssdprobe {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  void update(const GridProbeProgress& progress);
  void message(const std::string& text);
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  bool dirty_ = false;
};

}  // namespace ssdprobe
