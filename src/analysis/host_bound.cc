#include "analysis/host_bound.h"

#include <fmt/format.h>

namespace ssdprobe {

namespace {

bool waited_for_cpus(const HostBoundCheck& check) {
  return check.host_waited && *check.host_waited >= kHostWaitedShare;
}

// Suspect for what the engine or the process itself used up (the ceiling,
// a busy CPU), not only for waiting while other work held the cores.
bool suspected_by_own_use(const HostBoundCheck& check) {
  return check.plateau_share >= kHostBoundShare || (check.host_busy && *check.host_busy >= kHostBusyShare);
}

// What made the plateau suspect, in words.
std::string suspicion(const HostBoundCheck& check, const DepthSummary& busiest) {
  std::string why;
  if (check.plateau_share >= kHostBoundShare) {
    why = fmt::format("{:.0f} IOPS at depth {} are {:.0f} % of what the engine itself reaches on this host at that "
                      "depth with no device ({:.0f} IOPS of io_uring NOPs, {:.0f} ns of CPU per IO)",
                      busiest.iops, busiest.queue_depth, 100.0 * check.plateau_share, check.ceiling.iops,
                      check.ceiling.cpu_ns_per_io);
  }
  if (check.host_busy && *check.host_busy >= kHostBusyShare) {
    if (!why.empty()) why += ", and ";
    why += fmt::format("the process kept a CPU busy {:.0f} % of the time at depth {} ({:.0f} IOPS)",
                       100.0 * *check.host_busy, busiest.queue_depth, busiest.iops);
  }
  if (waited_for_cpus(check)) {
    if (!why.empty()) why += ", and ";
    why += fmt::format("the submitting thread waited for a CPU {:.0f} % of the time at depth {} ({:.0f} IOPS)",
                       100.0 * *check.host_waited, busiest.queue_depth, busiest.iops);
  }
  return why;
}

std::string rings_words(const MoreRingsCheck& rings) {
  return fmt::format("with {} rings on {} cores the same {} IOs in flight gave {:.0f} IOPS against {:.0f} with one ring "
                     "({:+.0f} %, medians of {} rounds each)",
                     rings.rings, rings.rings, rings.queue_depth, rings.iops, rings.one_ring_iops, 100.0 * rings.gain,
                     rings.rounds);
}

void withdraw(ParallelismVerdict& v, const std::string& why) {
  for (ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
    value->state = UnitState::undetermined;
    value->value.reset();
    value->confidence = 0.0;
    value->evidence = "not determined: " + why + "; what was measured: " + value->evidence;
  }
}

}  // namespace

std::optional<DepthSummary> busiest_depth(const ParallelismVerdict& v) {
  std::optional<DepthSummary> best;
  for (const auto& d : v.depths) {
    if (!best || d.iops > best->iops) best = d;
  }
  return best;
}

void check_host_bound(ParallelismVerdict& v, const EngineCeiling& ceiling) {
  const std::optional<DepthSummary> busiest = busiest_depth(v);
  if (!busiest || ceiling.iops <= 0.0) return;
  HostBoundCheck check;
  check.ceiling = ceiling;
  check.plateau_share = busiest->iops / ceiling.iops;
  check.host_busy = busiest->host_busy;
  check.host_waited = busiest->host_waited;
  check.suspected = suspected_by_own_use(check) || waited_for_cpus(check);
  v.host_check = check;
}

void judge_host_bound(ParallelismVerdict& v, const MoreRingsCheck& rings) {
  const std::optional<DepthSummary> busiest = busiest_depth(v);
  if (!v.host_check || !v.host_check->suspected || !busiest) return;
  HostBoundCheck& check = *v.host_check;
  check.more_rings = rings;
  const std::string suspect = suspicion(check, *busiest);
  if (!rings.timed && !suspected_by_own_use(check)) {
    // Waiting for a CPU now and then is weaker evidence than a core used
    // up: without rings to settle it, the plateau stands and says so.
    for (ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
      value->evidence += fmt::format("; {}, and more rings could not be tried ({}): whether other work on the host "
                                     "held the plateau down is not known",
                                     suspect, rings.not_timed_because);
    }
    return;
  }
  if (!rings.timed) {
    check.host_bound = true;
    withdraw(v, fmt::format("host-bound: {}; more rings could not be tried ({}), so the drive may serve more, and a "
                            "knee or plateau measured here would be the host's",
                            suspect, rings.not_timed_because));
    return;
  }
  if (rings.gain >= kMoreRingsGain) {
    check.host_bound = true;
    withdraw(v, fmt::format("host-bound: {}; {}: one submitting core was the limit, and the drive may serve more",
                            suspect, rings_words(rings)));
    return;
  }
  if (check.host_busy && *check.host_busy >= kHostBusyShare * rings.rings) {
    // With its kernel workers the one ring already kept as many CPUs busy
    // as the rings had: more rings found no CPU to add, and every core was
    // the limit, not the drive.
    check.host_bound = true;
    withdraw(v, fmt::format("host-bound: {}; {}, but one ring already kept {:.1f} CPUs busy: every CPU the rings "
                            "could use was taken, and the drive may serve more",
                            suspect, rings_words(rings), *check.host_busy));
    return;
  }
  for (ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops}) {
    value->evidence += fmt::format("; the host looked busy ({}), but {}: under {:.0f} %, so the plateau is not one "
                                   "core's limit",
                                   suspect, rings_words(rings), 100.0 * kMoreRingsGain);
  }
}

}  // namespace ssdprobe
