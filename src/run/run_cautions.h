// What may have disturbed a run's timings (issue 37): other IO on the disk
// during a timed phase (run/other_io.h), other work that filled the
// host's CPUs while the engine waited for the phase's completions
// (phases[].waits.asleep_because.cpus_busy), and the drive's own background
// work stalling the write grid's writes (issue 38). The verdict lists each as a
// caution with its numbers; a unit its phase left open names the one that
// held over that phase as the likely reason (run/unit_answers.h,
// run/read_page_note.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "device/cpu_contention.h"
#include "report/result.h"

namespace ssdprobe {

// Other work disturbs a timed phase's timings when the engine found the
// host's CPUs full (device/cpu_contention.h: the other runnable tasks
// filled every CPU) at 5 % or more of its waits for a completion, and at
// more than one reading's worth of them:
// - each such wait slept instead of polling and may have waited for a CPU
//   once woken, so its latency holds the host's delay too. The grids decide
//   from each cell's median and quartiles: under 5 % of samples, however
//   slow, move a median by under 3 points of percentile (to at most the
//   0.5 / 0.95 quantile) and a quartile by under 4, inside the noise their
//   stopping rule accepts; it is also the share other_io.h and waited_name
//   (device/io_counts.h) count as none.
// - one reading of /proc/loadavg stands for kRecheckNs (10 ms), and a
//   completion at queue depth 1 (the grids') takes 10 us or more: a single
//   reading, which may have caught a moment's spike on a quiet host, covers
//   at most 1000 waits. More than that took two readings that saw the CPUs
//   full.
constexpr double kCpusBusyDisturbingShare = 0.05;
constexpr uint64_t kFastestWaitNs = 10'000;
constexpr uint64_t kCpusBusyDisturbingWaits = CpuContention::kRecheckNs / kFastestWaitNs;

// Every wait for a completion the engine counted: already there, polled, or slept.
uint64_t completion_waits(const WaitCounts& waits);
bool cpus_busy_disturbs(const WaitCounts& waits);

// What held over one phase, in words a hint can quote: "other IO on sda
// during the read grid (12 reads, 48 MiB read) and other work filled the
// host's CPUs at 1800 of its 2000 waits for a completion"; "other work
// filled the host's CPUs at 1800 of the read grid's 2000 waits for a
// completion".
struct PhaseDisturbance {
  bool other_io = false;
  bool cpus_busy = false;
  std::string words;
  // "an idle host", "an idle disk" or "an idle host and disk": where a
  // rerun would not meet it again.
  std::string idle_place() const;
};

// Nullopt when the phase did not run, or nothing that was measured over it
// reached its line.
std::optional<PhaseDisturbance> phase_disturbance(const ResultDocument& doc, std::string_view phase);

// The write grid's writes stalled heavily (analysis/write_stalls.h: a full
// drive's garbage collection, or other work inside the drive), in words a
// caution and a hint can quote: "the write grid's writes stalled as on a
// full drive's garbage collection: 633 of 2400 slower than 4x their size's
// median and at least 1.9 ms (median write 156 us, stalled 2.3 ms)".
// Nullopt when the grid did not run or its stalls were not heavy.
std::optional<std::string> write_grid_stalls(const ResultDocument& doc);

// Every caution, other IO first, then the host's busy CPUs, then the write
// grid's stalls, each naming the phases and their numbers; empty when
// nothing seen reached its line.
std::vector<std::string> run_cautions(const ResultDocument& doc);

}  // namespace ssdprobe
