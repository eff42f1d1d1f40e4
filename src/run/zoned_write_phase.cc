#include "run/zoned_write_phase.h"

#include <linux/blkzoned.h>

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <vector>

#include "analysis/stats.h"
#include "core/units.h"
#include "device/zone_report.h"

namespace ssdprobe {
namespace {

ZonedWriteZone zone_summary(const ZoneWritten& z, uint64_t length) {
  ZonedWriteZone out;
  out.start_bytes = z.start;
  out.length_bytes = length;
  out.capacity_bytes = z.capacity;
  out.bytes_written = z.bytes_written;
  const auto& latency = z.stream.latency_us;
  out.ios = latency.size();
  out.cut_to_budget = z.cut_to_budget;
  out.stall_period_bytes = z.stalls.bytes;
  out.stall_confidence = z.stalls.confidence;
  out.stall_evidence = z.stalls.evidence;
  if (latency.empty()) return out;
  out.median_us = median(latency);
  out.p99_us = quantile(latency, 0.99);
  out.slow_ios = static_cast<uint64_t>(
      std::count_if(latency.begin(), latency.end(), [&](double us) { return us > 3.0 * out.median_us; }));
  return out;
}

// The section as far as the session knows it, before any write: the zones
// chosen and the device's zone geometry. The probe fills in the rest.
ZonedWriteSection start_section(const RunContext& run, uint32_t chunk) {
  const WriteSession& session = *run.write.session;
  ZonedWriteSection s;
  const auto& zones = session.write_zones();
  s.zone_bytes = zones.front().length_bytes;
  s.zone_capacity_bytes = zones.front().capacity_bytes;
  const ZonedLimits& limits = *run.target.topology.zoned;
  s.zone_append_max_bytes = limits.zone_append_max_bytes;
  s.max_open_zones = limits.max_open_zones;
  s.max_active_zones = limits.max_active_zones;
  s.chunk_bytes = chunk;
  const ZoneSummary report = summarize_zones(read_zone_report(session.device_fd(), run.target.path));
  s.zones_total = report.zones;
  s.zones_empty_before = report.empty;
  for (const Zone& z : zones) {
    s.zones.push_back({.start_bytes = z.start_bytes, .length_bytes = z.length_bytes, .capacity_bytes = z.capacity_bytes,
                       .bytes_written = 0, .ios = 0, .median_us = 0.0, .p99_us = 0.0, .slow_ios = 0,
                       .stall_period_bytes = std::nullopt, .stall_confidence = 0.0,
                       .stall_evidence = "not measured: the run stopped before this zone was written",
                       .cut_to_budget = false});
  }
  return s;
}

// One period in every zone that wrote enough to show one is a finding to
// compare with the zone; periods that differ between zones (or a period in
// some zones and none in others) are not a consistent erase unit.
std::string stall_text(const ZonedWriteSection& s) {
  std::vector<std::string> seen;
  std::optional<uint64_t> period;
  bool consistent = true;
  uint64_t longest = 0;
  for (const auto& z : s.zones) {
    if (z.ios == 0) continue;
    longest = std::max(longest, z.bytes_written);
    seen.push_back(z.stall_period_bytes ? format_size(*z.stall_period_bytes) : "none");
    if (!period && z.stall_period_bytes && seen.size() == 1) period = z.stall_period_bytes;
    consistent &= z.stall_period_bytes == period;
  }
  if (seen.empty()) return " Nothing was written: the stalls inside a zone were not measured.";
  if (!period && consistent) {
    return fmt::format(" No periodic stall showed in any zone's writes (at most {} written in one zone): an erase unit "
                       "inside a zone was not determined.", format_size(longest));
  }
  if (!consistent) {
    std::string list;
    for (const auto& p : seen) list += (list.empty() ? "" : ", ") + p;
    return fmt::format(" The zones' writes stalled with different periods ({}): no consistent erase unit inside a "
                       "zone was determined.", list);
  }
  const double capacity = static_cast<double>(s.zone_capacity_bytes), size = static_cast<double>(s.zone_bytes);
  return fmt::format(" Writes stalled every {} in every zone written: the capacity is {:.2f} and the size {:.2f} such "
                     "periods{}.", format_size(*period), capacity / static_cast<double>(*period),
                     size / static_cast<double>(*period),
                     s.zone_capacity_bytes % *period == 0 ? " (the capacity is a whole number of them)" : "");
}

}  // namespace

void summarize_zoned_writes(ZonedWriteSection& section, const ZonedWriteResult& result) {
  std::vector<double> all;
  section.bytes_written = result.bytes_written;
  for (size_t i = 0; i < result.zones.size() && i < section.zones.size(); ++i) {
    const ZoneWritten& z = result.zones[i];
    section.zones[i] = zone_summary(z, section.zones[i].length_bytes);
    all.insert(all.end(), z.stream.latency_us.begin(), z.stream.latency_us.end());
  }
  if (!all.empty()) {
    section.median_us = median(all);
    section.p99_us = quantile(all, 0.99);
  }
  section.comparison = compare_with_zone(section);
}

std::string compare_with_zone(const ZonedWriteSection& s) {
  std::string text = fmt::format("Zone size {}, capacity {} ({} of each zone cannot be written).", format_size(s.zone_bytes),
                                 format_size(s.zone_capacity_bytes), format_size(s.zone_bytes - s.zone_capacity_bytes));
  text += stall_text(s);
  if (s.zone_append_max_bytes) {
    text += fmt::format(" Zone append limit {} (writes here were {}; zone append itself was not timed).",
                        format_size(*s.zone_append_max_bytes), format_size(s.chunk_bytes));
  }
  return text;
}

PhaseOutcome run_zoned_write(RunContext& run) {
  WriteState& w = run.write;
  const auto& zones = w.session->write_zones();
  const DeviceLimits& limits = run.target.device->limits();
  const uint32_t chunk = zoned_write_chunk(limits.logical_block, limits.max_transfer,
                                           run.target.topology.zoned->zone_append_max_bytes.value_or(0));
  run.doc.zoned_write = start_section(run, chunk);
  ZonedWriteOptions options;
  for (const Zone& z : zones) options.zones.push_back({z.start_bytes, z.capacity_bytes});
  options.chunk_bytes = chunk;
  options.budget_s = w.budget_s;
  options.seed = run.options.seed;
  options.progress = [&run, n = zones.size()](size_t zone, uint64_t written, uint64_t capacity) {
    run.observer.message(fmt::format("zoned writes: zone {} of {}, {} of {}", zone + 1, n, format_size(written),
                                     format_size(capacity)));
  };
  const ZonedWriteResult result = run_zoned_write_probe(*run.target.device, options);
  summarize_zoned_writes(*run.doc.zoned_write, result);
  run.tally.ios += result.ios;
  run.tally.device_time_s += result.elapsed_s;
  run.doc.write_probe->bytes_written += result.bytes_written;
  const bool cut = std::any_of(result.zones.begin(), result.zones.end(), [](const ZoneWritten& z) { return z.cut_to_budget; });
  if (!cut) return PhaseOutcome::done(result.elapsed_s);
  return PhaseOutcome::cut_by_budget("--budget ended the writes before a zone's capacity", result.elapsed_s);
}

}  // namespace ssdprobe
