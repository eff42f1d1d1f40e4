#include "report/zoned_write_render.h"

#include <fmt/format.h>

#include "core/units.h"
#include "report/json_values.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

json zone_json(const ZonedWriteZone& z) {
  return {{"start_bytes", z.start_bytes},
          {"length_bytes", z.length_bytes},
          {"capacity_bytes", z.capacity_bytes},
          {"bytes_written", z.bytes_written},
          {"ios", z.ios},
          {"median_us", rounded(z.median_us)},
          {"p99_us", rounded(z.p99_us)},
          {"slow_ios", z.slow_ios},
          {"stall_period_bytes", json_or_null(z.stall_period_bytes)},
          {"stall_confidence", rounded(z.stall_confidence)},
          {"stall_evidence", z.stall_evidence},
          {"cut_to_budget", z.cut_to_budget}};
}

}  // namespace

json zoned_write_json(const std::optional<ZonedWriteSection>& section) {
  if (!section) return nullptr;
  const ZonedWriteSection& s = *section;
  json zones = json::array();
  for (const auto& z : s.zones) zones.push_back(zone_json(z));
  return {{"zones_total", s.zones_total},
          {"zones_empty_before", s.zones_empty_before},
          {"zone_bytes", s.zone_bytes},
          {"zone_capacity_bytes", s.zone_capacity_bytes},
          {"zone_append_max_bytes", json_or_null(s.zone_append_max_bytes)},
          {"max_open_zones", json_or_null(s.max_open_zones)},
          {"max_active_zones", json_or_null(s.max_active_zones)},
          {"chunk_bytes", s.chunk_bytes},
          {"bytes_written", s.bytes_written},
          {"median_us", rounded(s.median_us)},
          {"p99_us", rounded(s.p99_us)},
          {"zones", zones},
          {"comparison", s.comparison},
          {"reset_verified", s.reset_verified},
          {"reset", s.reset_message}};
}

void zoned_write_text(std::string& out, const std::optional<ZonedWriteSection>& section, size_t width) {
  if (!section) return;
  const ZonedWriteSection& s = *section;
  out += "\nZoned writes (host-managed: only empty zones, sequential, reset afterwards)\n";
  out += wrapped("  ", fmt::format("{} of {} empty zones written ({} each, capacity {}), {} in all in {} writes; "
                                   "latency median {:.1f} us, p99 {:.1f} us",
                                   s.zones.size(), s.zones_empty_before, format_size(s.zone_bytes),
                                   format_size(s.zone_capacity_bytes), format_size(s.bytes_written),
                                   format_size(s.chunk_bytes), s.median_us, s.p99_us),
                 width, 4);
  for (const auto& z : s.zones) {
    out += wrapped("  ", fmt::format("zone at {}: {} of {}{}, median {:.1f} us, p99 {:.1f} us, {} slow; stalls: {}",
                                     format_size(z.start_bytes), format_size(z.bytes_written),
                                     format_size(z.capacity_bytes), z.cut_to_budget ? " (--budget)" : "", z.median_us,
                                     z.p99_us, z.slow_ios,
                                     z.stall_period_bytes ? "every " + format_size(*z.stall_period_bytes) : "none periodic"),
                   width, 4);
  }
  out += wrapped("  ", s.comparison, width, 4);
  out += wrapped("  ", s.reset_verified ? "Reset: " + s.reset_message : "Reset NOT verified: " + s.reset_message,
                 width, 4);
}

}  // namespace ssdprobe
