#include "analysis/host_bound.h"

#include <fmt/format.h>

namespace ssdprobe {

std::optional<DepthSummary> busiest_depth(const ParallelismVerdict& v) {
  std::optional<DepthSummary> best;
  for (const auto& d : v.depths) {
    if (!best || d.iops > best->iops) best = d;
  }
  return best;
}

void judge_host_bound(ParallelismVerdict& v, const EngineCeiling& ceiling) {
  const std::optional<DepthSummary> busiest = busiest_depth(v);
  if (!busiest || ceiling.iops <= 0.0) return;
  HostBoundCheck check;
  check.ceiling = ceiling;
  check.plateau_share = busiest->iops / ceiling.iops;
  check.host_bound = check.plateau_share >= kHostBoundShare;
  v.host_check = check;
  if (!check.host_bound) return;
  const std::string why = fmt::format(
      "host-bound: {:.0f} IOPS at depth {} are {:.0f} % of what the engine itself reaches on this host at that depth "
      "with no device ({:.0f} IOPS of io_uring NOPs, {:.0f} ns of CPU per IO); the drive may serve more, and a knee "
      "or plateau measured here would be the host's",
      busiest->iops, busiest->queue_depth, 100.0 * check.plateau_share, ceiling.iops, ceiling.cpu_ns_per_io);
  for (ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
    value->state = UnitState::undetermined;
    value->value.reset();
    value->confidence = 0.0;
    value->evidence = "not determined: " + why + "; what was measured: " + value->evidence;
  }
}

}  // namespace ssdprobe
