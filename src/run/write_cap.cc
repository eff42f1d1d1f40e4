#include "run/write_cap.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"

namespace ssdprobe {

namespace {

// The write phases in run order with their share of the bound; the SLC
// cache's share also covers the grid inside the cache, which refills it.
struct CappedPhase {
  const char* name;
  const char* label;
  uint64_t WriteBound::*share;
  const char* what;  // what the share pays for
};

constexpr CappedPhase kCappedPhases[] = {
    {"slc_cache", "SLC cache probe", &WriteBound::slc_cache, "its fill"},
    {"write_grid", "write grid", &WriteBound::write_grid, "its writes"},
    {"erase_stream", "erase stream", &WriteBound::erase_stream, "its two passes over the window"},
    {"write_parallelism", "write parallelism probe", &WriteBound::write_parallelism, "its writes"},
    {"open_units", "open-units probe", &WriteBound::open_units, "its interleaved streams"},
};

// "16 GiB" for a whole figure, else "3.2 GiB": the cap's own words.
std::string cap_text(uint64_t cap) { return "--max-write-bytes " + format_size(cap); }

// Up to two significant digits, without a trailing exponent: 0.0032, 1.8, 12.
std::string short_number(double value) {
  if (value >= 10.0) return fmt::format("{:.0f}", value);
  if (value >= 0.1) return fmt::format("{:.1f}", value);
  return fmt::format("{:.2g}", value);
}

// Decimal units, as drive makers state endurance: "600 TB", "1.2 PB".
std::string decimal_bytes(uint64_t bytes) {
  constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1000.0 && unit + 1 < std::size(kUnits)) {
    value /= 1000.0;
    ++unit;
  }
  return fmt::format("{} {}", short_number(value), kUnits[unit]);
}

}  // namespace

WriteCapPlan plan_write_cap(const WriteBound& bound, uint64_t cap) {
  if (bound.restore > cap) {
    throw Error(ErrorCategory::usage,
                fmt::format("{} is smaller than the restore of the write window ({}): the window could not be put "
                            "back; raise it or choose a smaller --region", cap_text(cap), format_size(bound.restore)));
  }
  WriteCapPlan plan{cap, bound, {}, 0};
  uint64_t left = cap - bound.restore;
  for (const CappedPhase& phase : kCappedPhases) {
    const uint64_t needs = bound.*phase.share;
    if (needs <= left) {
      left -= needs;
      continue;
    }
    plan.planned.*phase.share = 0;
    plan.skipped[phase.name] = fmt::format("{} skipped: {} needs up to {}, {} left of {}", phase.label, phase.what,
                                           format_size(needs), format_size(left), cap_text(cap));
  }
  if (const auto cache = plan.skipped.find("slc_cache"); cache != plan.skipped.end())
    plan.skipped["write_grid_in_cache"] = cache->second;
  return plan;
}

std::optional<std::string> skipped_by_cap(const WriteCapPlan& plan, const std::string& phase) {
  const auto found = plan.skipped.find(phase);
  if (found == plan.skipped.end()) return std::nullopt;
  return found->second;
}

std::string share_of_drive(uint64_t bytes, std::optional<uint64_t> endurance_estimate_bytes, uint64_t device_bytes) {
  if (endurance_estimate_bytes && *endurance_estimate_bytes > 0) {
    const double percent = 100.0 * static_cast<double>(bytes) / static_cast<double>(*endurance_estimate_bytes);
    return fmt::format("{} % of the drive's endurance estimate of {} (NVMe Endurance Group Information log)",
                       short_number(percent), decimal_bytes(*endurance_estimate_bytes));
  }
  if (device_bytes == 0) return "the drive reports no endurance estimate and its capacity is unknown";
  const double drives = static_cast<double>(bytes) / static_cast<double>(device_bytes);
  if (drives < 1.0) {
    return fmt::format("{} % of this {} device's capacity (the drive reports no endurance estimate)",
                       short_number(100.0 * drives), format_size(device_bytes));
  }
  return fmt::format("{} full-drive writes of this {} device (the drive reports no endurance estimate)",
                     short_number(drives), format_size(device_bytes));
}

}  // namespace ssdprobe
