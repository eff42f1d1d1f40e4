// More rings: is one submitting core the limit of a plateau? The sweep's
// busiest depth is timed again with its requests spread over one ring per
// core: a thread pinned to a CPU of its own for each, each with an engine
// of its own on the same target (Device::another_ring), the same number of
// IOs in flight in all. One ring, as the sweep ran it, is timed alternately
// with them, so the host's drift falls on both. Reads only: writes stay
// inside the one write window the write session saved, on one ring.
// analysis/host_bound.h judges what the gain means.
#pragma once

#include <cstdint>

#include "analysis/parallelism.h"
#include "device/device.h"
#include "probes/parallelism_plan.h"

namespace ssdprobe {

// One-ring and many-ring segments each (alternating, the order flipped
// every round); the medians are compared.
constexpr int kMoreRingsRounds = 3;
// At most this many rings, however many CPUs the process may use.
constexpr uint32_t kMostRings = 8;

struct MoreRingsResult {
  MoreRingsCheck check;
  uint64_t ios = 0;        // timed reads, every ring's
  uint64_t bytes = 0;      // their bytes
  double elapsed_s = 0.0;  // device clock, from the first segment to the last
};

// Times the plan's random reads at `queue_depth` in flight, on one ring
// and spread over one ring per usable CPU (at most kMostRings, at most one
// per IO in flight). Not timed, with the reason, when the process may use
// only one CPU, the depth is 1, the engine opens no other ring (NVMe
// passthrough), or a ring cannot be set up on its thread (io_uring or
// locked-memory limits): that is not the run's failure. An IO error while
// the reads are out is.
MoreRingsResult time_more_rings(Device& device, const ParallelismPlan& plan, uint32_t queue_depth, uint64_t seed);

}  // namespace ssdprobe
