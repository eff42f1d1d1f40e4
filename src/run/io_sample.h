// The disk's IO counters and the run's own count, read at a timed phase's
// start and end: their difference is what others did on the disk meanwhile
// (PhaseRecord::other_io). Only phases whose every IO goes through the
// engine (Phase::timed) are sampled; the journal's save and the restore use
// their own descriptor, the audit libblkid's, so "own" would be wrong there.
#pragma once

#include <optional>

#include "device/io_counts.h"
#include "report/result.h"

namespace ssdprobe {

struct RunContext;

struct IoSample {
  IoCounts disk, own;
};

// Nullopt where it cannot be told: a simulated drive or a file (no disk
// counters of their own), no counting engine, or an unreadable stat file.
std::optional<IoSample> sample_io(const RunContext& run);

// The whole disk's counters are read, also for a partition target: IO on
// another partition of the same drive disturbs timings as much, and the
// kernel counts the partition's IO (ours) in the disk's counters too.
std::optional<OtherIo> other_io_between(const RunContext& run, const IoSample& start, const IoSample& end);

}  // namespace ssdprobe
