#include "run/open_units_phase.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/units.h"
#include "probes/open_units_probe.h"
#include "run/run_budget.h"
#include "run/run_context.h"
#include "run/write_phases.h"

namespace ssdprobe {
namespace {

uint64_t stretch_of(const ResultDocument& doc) {
  return doc.erase_block.state == UnitState::found && doc.erase_block.bytes ? *doc.erase_block.bytes
                                                                            : kOpenUnitsStandInStretch;
}

// The window from its first byte on a stretch boundary (in disk
// coordinates: erase blocks are the drive's, not the partition's).
Region stretches_window(const RunContext& run) {
  return unit_aligned(run.write.window, stretch_of(run.doc), run.target.topology.partition_start_bytes);
}

uint64_t write_size(const RunContext& run) {
  const DetectedUnit& unit = run.doc.write_unit;
  const uint64_t logical = run.target.device ? run.target.device->limits().logical_block : 512;
  const uint64_t size = unit.state == UnitState::found && unit.bytes ? *unit.bytes : kOpenUnitsStandInWrite;
  return std::max(size, logical);
}

// The section before the probe: what it writes with, and why.
OpenUnitsSection planned_section(const RunContext& run, const OpenUnitsOptions& options) {
  OpenUnitsSection s;
  s.stretch_bytes = options.stretch_bytes;
  s.stretch_from = run.doc.erase_block.state == UnitState::found ? "erase_block" : "stand_in";
  s.io_bytes = options.io_bytes;
  s.io_from = run.doc.write_unit.state == UnitState::found ? "write_unit" : "stand_in";
  s.offset = options.window.offset;
  s.cap_bytes = options.cap_bytes;
  return s;
}

// What the evidence adds when a stand-in was used: a reader must know the
// streams' spacing or write size was not measured.
std::string stand_in_words(const OpenUnitsSection& s) {
  std::string words;
  if (s.stretch_from == "stand_in")
    words += fmt::format("; streams {} apart, a stand-in: the erase block was not found", format_size(s.stretch_bytes));
  if (s.io_from == "stand_in")
    words += fmt::format("; writes of {}, a stand-in: the write unit was not found", format_size(s.io_bytes));
  return words;
}

std::string cut_words(const OpenUnitsResult& r) {
  if (r.cut_by_cap) return fmt::format("; the {} cap ended the ladder", format_size(kOpenUnitsByteCap));
  if (r.cut_by_budget) return "; --budget ended the ladder";
  return "";
}

// What would tell, for an answer that is not determined.
std::string to_determine(const OpenUnitsSection& s, const OpenUnitsResult& r) {
  if (s.verdict.state != UnitState::undetermined) return "";
  if (r.cut_by_budget) return "a larger --budget lets the ladder go on";
  if (s.stretch_from == "stand_in") return "a run that finds the erase block places every stream in its own";
  return "a rerun on an idle host tells a collapse from noise";
}

}  // namespace

std::optional<std::string> skip_open_units_if_no_room(const RunContext& run) {
  const uint64_t stretch = stretch_of(run.doc);
  const Region window = stretches_window(run);
  if (window.length / stretch >= 2) return std::nullopt;
  return fmt::format("the write window holds {} stretch(es) of {} ({}): two streams in distinct erase blocks need "
                     "two", window.length / stretch, format_size(stretch),
                     run.doc.erase_block.state == UnitState::found ? "the erase block" : "a stand-in erase block");
}

PhaseOutcome run_open_units_phase(RunContext& run) {
  OpenUnitsOptions options;
  options.stretch_bytes = stretch_of(run.doc);
  options.window = stretches_window(run);
  options.io_bytes = write_size(run);
  options.budget_s = run.budget.open_units_s();
  options.seed = run.options.seed;
  options.progress = [&run](uint32_t streams, uint64_t written) {
    run.observer.message(fmt::format("open-units probe: {} interleaved streams, {} written", streams,
                                     format_size(written)));
  };
  OpenUnitsSection section = planned_section(run, options);
  const OpenUnitsResult result = run_open_units_probe(*run.target.device, options);
  section.verdict = infer_open_units(result.steps, section.stretch_from == "erase_block");
  section.verdict.evidence += stand_in_words(section) + cut_words(result);
  section.most_streams = result.most_streams;
  section.written_bytes = result.bytes_written;
  section.device_time_s = result.elapsed_s;
  section.cut_by = result.cut_by_cap ? "cap" : result.cut_by_budget ? "budget" : "";
  run.doc.write_probe->bytes_written += result.bytes_written;
  run.tally.device_time_s += result.elapsed_s;
  for (const auto& step : result.steps) run.tally.ios += step.latency_us.size();
  section.to_determine = to_determine(section, result);
  const bool settled = section.verdict.state != UnitState::undetermined;
  run.doc.open_units = std::move(section);
  if (settled || !result.cut_by_budget) return PhaseOutcome::done(result.elapsed_s);
  return PhaseOutcome::cut_by_budget("--budget ended the ladder before it settled", result.elapsed_s);
}

namespace {

// What the firmware says a host may keep open at once: FDP's reclaim unit
// handles in the configuration in use, or the Streams directive's streams
// allocated to (else available to) the namespace.
struct StatedStreams {
  uint32_t count = 0;
  std::string field;
  std::string source;
};

std::optional<StatedStreams> stated_streams(const ResultDocument& doc) {
  if (!doc.firmware.nvme) return std::nullopt;
  const NvmeFirmwareData& nvme = *doc.firmware.nvme;
  if (nvme.fdp) {
    if (const FdpConfiguration* config = nvme.fdp->active_configuration(); config && config->nruh > 0)
      return StatedStreams{config->nruh, "nvme.fdp.nruh", "FDP reclaim unit handles"};
  }
  if (nvme.directives && nvme.directives->streams) {
    const NvmeStreamsParams& p = *nvme.directives->streams;
    if (p.nsa > 0) return StatedStreams{p.nsa, "nvme.directives.streams.nsa", "streams allocated to the namespace"};
    if (p.msl > 0) return StatedStreams{p.msl, "nvme.directives.streams.msl", "the Streams directive's maximum"};
  }
  return std::nullopt;
}

}  // namespace

void compare_open_units_with_firmware(ResultDocument& doc) {
  const OpenUnitsVerdict& v = doc.open_units.verdict;
  const auto stated = stated_streams(doc);
  if (!stated) return;
  doc.open_units.firmware_streams = stated->count;
  doc.open_units.firmware_streams_field = stated->field;
  // Only a measured limit below what the firmware states is a mismatch: a
  // drive that keeps more open than it advertises costs nothing.
  if (v.state != UnitState::found || !v.at_most || *v.at_most >= stated->count) return;
  Mismatch m;
  m.field = stated->field;
  m.reported = stated->count;
  m.detected = *v.streams;
  m.severity = Severity::warning;
  const auto collapsed = std::find_if(v.steps.begin(), v.steps.end(), [&](const StreamStepJudgement& s) {
    return s.streams == *v.at_most + 1;
  });
  m.message = fmt::format("the firmware states {} {}, but writes to more than {} streams at once collapsed{}",
                          stated->count, stated->source, *v.at_most,
                          collapsed == v.steps.end() ? std::string()
                                                     : fmt::format(": {} streams cost {:.1f}x one stream's per write",
                                                                   collapsed->streams, collapsed->ratio));
  doc.mismatches.push_back(std::move(m));
}

}  // namespace ssdprobe
