// Whose plateau is it: the drive's or the host's? A queue-depth sweep's
// plateau is where adding IOs stops adding IOPS. On a drive faster than the
// host can drive it, that is where the engine (one submitting thread on
// one core) runs out, and the sweep would report the host's limit as the
// drive's knee and plateau. The probe's run measures the engine's own
// ceiling at the plateau's depth (runner/engine_ceiling.h) and this judges
// the plateau against it. Pure: no IO, no clock.
#pragma once

#include <optional>

#include "analysis/parallelism.h"
#include "runner/engine_ceiling.h"

namespace ssdprobe {

// A plateau at or above this share of the engine's ceiling is the host's:
// near its ceiling the engine's own time per IO is a large part of the
// interval between completions, and more of the drive could not show.
constexpr double kHostBoundShare = 0.70;

// The depth whose mean IOPS were highest (the plateau's, or the deepest
// while IOPS still rose): where the ceiling is to be measured. None when
// the sweep timed no depth.
std::optional<DepthSummary> busiest_depth(const ParallelismVerdict& v);

// Records the ceiling beside the verdict and, when the busiest depth's IOPS
// reach kHostBoundShare of it, says the knee and the plateau are the
// host's: both become undetermined (a found value is withdrawn), and their
// evidence names the share, the ceiling and the depth.
void judge_host_bound(ParallelismVerdict& v, const EngineCeiling& ceiling);

}  // namespace ssdprobe
