#include "run/run_cautions.h"

#include <fmt/format.h>

#include "report/run_context_text.h"
#include "run/other_io.h"

namespace ssdprobe {
namespace {

// The phase's waits, when the engine counted them and they reached the line.
const WaitCounts* busy_waits(const PhaseRecord& p) {
  if (!p.host || !p.host->waits || !cpus_busy_disturbs(*p.host->waits)) return nullptr;
  return &*p.host->waits;
}

// "other work filled the host's CPUs during the read grid (at 1800 of its
// 2000 waits for a completion) ...", naming every phase it disturbed.
std::optional<std::string> cpus_busy_caution(const ResultDocument& doc) {
  std::vector<std::string> phases;
  for (const PhaseRecord& p : doc.phases) {
    if (const WaitCounts* waits = busy_waits(p)) {
      phases.push_back(fmt::format("the {} (at {} of its {} waits for a completion)", phase_words(p.name),
                                   waits->slept_for(SleepReason::cpus_busy), completion_waits(*waits)));
    }
  }
  if (phases.empty()) return std::nullopt;
  return fmt::format("other work filled the host's CPUs during {}, which may have disturbed {} timings",
                     and_list(phases), phases.size() == 1 ? "its" : "their");
}

std::string latency_words(double us) {
  return us < 1000.0 ? fmt::format("{:.0f} us", us) : fmt::format("{:.1f} ms", us / 1000.0);
}

}  // namespace

std::optional<std::string> write_grid_stalls(const ResultDocument& doc) {
  if (!doc.write_probe || !doc.write_probe->grid_stalls || !doc.write_probe->grid_stalls->heavy()) return std::nullopt;
  const WriteStalls& s = *doc.write_probe->grid_stalls;
  return fmt::format("the write grid's writes stalled as on a full drive's garbage collection: {} of {} slower than "
                     "{:g}x their size's median and at least {} (median write {}, stalled {})", s.stalled, s.writes,
                     kStallRatio, latency_words(s.threshold_us), latency_words(s.median_us),
                     latency_words(s.stalled_median_us));
}

uint64_t completion_waits(const WaitCounts& waits) { return waits.ready + waits.polled + waits.slept(); }

bool cpus_busy_disturbs(const WaitCounts& waits) {
  const uint64_t busy = waits.slept_for(SleepReason::cpus_busy);
  const double share = kCpusBusyDisturbingShare * static_cast<double>(completion_waits(waits));
  return busy > kCpusBusyDisturbingWaits && static_cast<double>(busy) >= share;
}

std::string PhaseDisturbance::idle_place() const {
  if (other_io && cpus_busy) return "an idle host and disk";
  return cpus_busy ? "an idle host" : "an idle disk";
}

std::optional<PhaseDisturbance> phase_disturbance(const ResultDocument& doc, std::string_view phase) {
  const PhaseRecord* p = doc.phase_named(phase);
  if (p == nullptr) return std::nullopt;
  PhaseDisturbance d;
  const std::string name = phase_words(p->name);
  if (p->other_io && other_io_disturbs(*p->other_io)) {
    d.other_io = true;
    d.words = fmt::format("other IO on {} during the {} ({})", p->other_io->disk, name,
                          io_amounts_text(p->other_io->other));
  }
  if (const WaitCounts* waits = busy_waits(*p)) {
    d.cpus_busy = true;
    d.words += fmt::format("{}other work filled the host's CPUs at {} of {} {} waits for a completion",
                           d.other_io ? " and " : "", waits->slept_for(SleepReason::cpus_busy),
                           d.other_io ? "its" : "the " + name + "'s", completion_waits(*waits));
  }
  if (d.words.empty()) return std::nullopt;
  return d;
}

std::vector<std::string> run_cautions(const ResultDocument& doc) {
  std::vector<std::string> cautions;
  if (auto other_io = other_io_disturbance(doc)) cautions.push_back(*other_io);
  if (auto busy = cpus_busy_caution(doc)) cautions.push_back(*busy);
  if (auto stalls = write_grid_stalls(doc)) cautions.push_back(*stalls);
  return cautions;
}

}  // namespace ssdprobe
