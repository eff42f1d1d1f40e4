// Progress on standard error, only when it is a terminal and not --quiet:
// one line rewritten in place per round.
#pragma once

#include "probes/read_grid_probe.h"

namespace ssdprobe {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  void update(const ReadProbeProgress& progress);
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  bool dirty_ = false;
};

}  // namespace ssdprobe
