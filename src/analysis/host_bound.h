// Whose plateau is it: the drive's or the host's? A queue-depth sweep's
// plateau is where adding IOs stops adding IOPS. On a drive faster than the
// host can drive it, that is where the engine (one submitting thread on
// one core) runs out, and the sweep would report the host's limit as the
// drive's knee and plateau.
//
// Two readings make a plateau suspect: the engine's own ceiling at the
// plateau's depth (runner/engine_ceiling.h: NOPs, the engine's cost alone),
// and how busy the process kept a CPU there (DepthSummary::host_busy: that
// also counts the kernel's work for each request, which NOPs skip, so it
// catches a storage stack that eats the core long before the engine's
// ceiling). A suspect plateau is then timed again with its requests
// spread over one ring per core (probes/more_rings_probe.h): if more of the
// host serves more, the one core was the limit. Pure: no IO, no clock.
#pragma once

#include <optional>
#include <string>

#include "analysis/parallelism.h"
#include "runner/engine_ceiling.h"

namespace ssdprobe {

// A plateau at or above this share of the engine's ceiling is suspect:
// near its ceiling the engine's own time per IO is a large part of the
// interval between completions, and more of the drive could not show.
constexpr double kHostBoundShare = 0.70;
// So is one where the process kept a CPU busy this share of the time: the
// submitter (with the kernel work it does for its requests) had no time
// left to issue more.
constexpr double kHostBusyShare = 0.90;
// So is one where the submitting thread waited for a CPU, with work to do,
// this share of the time (DepthSummary::host_waited; 0.2 % on this VM when
// quiet, 12-34 % beside two busy loops per CPU): other work held the cores,
// and completions sat unreaped while it waited.
constexpr double kHostWaitedShare = 0.10;
// More rings must raise the IOPS by this share to call the one core the
// limit (a smaller change is within a shared host's noise).
constexpr double kMoreRingsGain = 0.10;

// The depth whose mean IOPS were highest (the plateau's, or the deepest
// while IOPS still rose): where the ceiling is to be measured. None when
// the sweep timed no depth.
std::optional<DepthSummary> busiest_depth(const ParallelismVerdict& v);

// Records the ceiling, the busiest depth's share of it and its busy share
// beside the verdict, and whether either reached its line (suspected).
// Nothing is withdrawn yet: judge_host_bound decides.
void check_host_bound(ParallelismVerdict& v, const EngineCeiling& ceiling);

// After check_host_bound, with what more rings showed (timed only when the
// plateau was suspect): a suspect plateau is the host's when more rings
// gained at least kMoreRingsGain, when one ring already kept as many CPUs
// busy as the rings had (host_busy >= kHostBusyShare x rings: no CPU was
// left to add), or when they could not be timed while the engine or the
// process had used up a core (the cautious answer; a plateau suspect only
// for the submitter's waits keeps its value, its evidence saying so). The
// knee and the plateau then become undetermined (a
// found value is withdrawn) and their evidence says why, with the numbers;
// a suspect plateau that more rings did not raise stands, and its evidence
// says so.
void judge_host_bound(ParallelismVerdict& v, const MoreRingsCheck& rings);

}  // namespace ssdprobe
