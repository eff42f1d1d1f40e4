// Whether IO others did on the disk during a timed phase was large enough to
// disturb its timings: the one question the verdict asks of phases[].other_io.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/result.h"

namespace ssdprobe {

// Other IO disturbs a timed phase when its bytes (read + written) reach 5 %
// of the bytes the phase itself moved, and at least 1 MiB: others then held
// the drive's queue and channels for a share of the phase that shows in the
// latencies (a whole phase's step is often a few percent of a latency), while
// the odd metadata write of a filesystem on another partition does not.
constexpr double kOtherIoDisturbingShare = 0.05;
constexpr uint64_t kOtherIoDisturbingBytes = 1u << 20;

bool other_io_disturbs(const OtherIo& io);

// The words the cautions' sentences share (run/run_cautions.h): a phase's
// name ("read_grid" -> "read grid"), and a list ("a, b and c").
std::string phase_words(std::string name);
std::string and_list(const std::vector<std::string>& items);

// "other IO on nvme0n1 during the read grid (12,345 reads, 48 MiB read) may
// have disturbed its timings", naming every disturbed phase; nullopt when
// none was (or none could be measured).
std::optional<std::string> other_io_disturbance(const ResultDocument& doc);

}  // namespace ssdprobe
