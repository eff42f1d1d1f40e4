#include "analysis/mismatches.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {
namespace {

std::optional<uint64_t> bytes_of(const DetectedUnit* unit) {
  return unit && unit->bytes ? unit->bytes : std::nullopt;
}

Mismatch make(const char* field, uint64_t reported, uint64_t detected, Severity severity, std::string message) {
  return Mismatch{field, static_cast<int64_t>(reported), static_cast<int64_t>(detected), severity, std::move(message)};
}

// A reported size smaller than the unit IO pays for makes partitioning tools
// and mkfs align to too small a unit. For minimum_io_size, which those tools
// read, that is a warning; physical_block_size is capped by the kernel at the
// atomic write unit, so a smaller one is common and only information. A
// larger value is not contradicted (it may describe a level not measured).
void compare_min_size(const char* field, const std::optional<uint64_t>& reported, uint64_t unit,
                      Severity severity_if_smaller, std::vector<Mismatch>& out) {
  if (!reported || *reported == 0 || *reported == unit) return;
  if (*reported < unit) {
    out.push_back(make(field, *reported, unit, severity_if_smaller,
                       fmt::format("{} is {} but IO smaller than or misaligned to {} costs extra: tools that align "
                                   "to {} (parted, mkfs.xfs, LVM) will under-align",
                                   field, format_size(*reported), format_size(unit), field)));
  } else {
    out.push_back(make(field, *reported, unit, Severity::info,
                       fmt::format("{} is {}, larger than the {} unit measured; the measurement does not "
                                   "contradict it",
                                   field, format_size(*reported), format_size(unit))));
  }
}

void compare_optimal(const Topology& t, const std::optional<uint64_t>& write_unit,
                     const std::optional<uint64_t>& erase_block, std::vector<Mismatch>& out) {
  const auto best = erase_block ? erase_block : write_unit;
  if (!best || !t.optimal_io_size) return;
  const uint64_t reported = *t.optimal_io_size;
  if (reported == 0) {
    out.push_back(make("optimal_io_size", 0, *best, Severity::info,
                       fmt::format("optimal_io_size is 0 (not reported); measured {} {}", erase_block ? "erase block" : "write unit",
                                   format_size(*best))));
  } else if (write_unit && reported % *write_unit != 0) {
    out.push_back(make("optimal_io_size", reported, *write_unit, Severity::warning,
                       fmt::format("optimal_io_size {} is not a multiple of the {} write unit: IO sized to it "
                                   "leaves partly written units",
                                   format_size(reported), format_size(*write_unit))));
  }
}

void compare_discard(const Topology& t, const std::optional<uint64_t>& write_unit, std::vector<Mismatch>& out) {
  if (!write_unit || !t.discard_granularity || *t.discard_granularity == 0) return;
  if (*t.discard_granularity % *write_unit == 0) return;
  out.push_back(make("discard_granularity", *t.discard_granularity, *write_unit, Severity::info,
                     fmt::format("discard_granularity {} is not a multiple of the {} write unit: a discard of that "
                                 "size cannot free whole units",
                                 format_size(*t.discard_granularity), format_size(*write_unit))));
}

void check_partition_start(const Topology& t, uint64_t unit, std::vector<Mismatch>& out) {
  if (t.partition_name.empty() || t.partition_start_bytes % unit == 0) return;
  out.push_back(make("partition_start", t.partition_start_bytes, unit, Severity::warning,
                     fmt::format("partition {} starts at byte {}, which is {} past a {} boundary: IO aligned inside "
                                 "the partition is misaligned on the drive",
                                 t.partition_name, t.partition_start_bytes, t.partition_start_bytes % unit,
                                 format_size(unit))));
}

}  // namespace

std::vector<Mismatch> find_mismatches(const Topology& reported, const DetectedGeometry& detected) {
  std::vector<Mismatch> out;
  const auto page = bytes_of(detected.read_page);
  const auto write = bytes_of(detected.write_unit);
  const auto erase = bytes_of(detected.erase_block);
  if (page || write) {
    const uint64_t unit = std::max(page.value_or(0), write.value_or(0));
    compare_min_size("minimum_io_size", reported.minimum_io_size, unit, Severity::warning, out);
    compare_min_size("physical_block_size", reported.physical_block_size, unit, Severity::info, out);
  }
  compare_optimal(reported, write, erase, out);
  compare_discard(reported, write, out);
  if (page || write) check_partition_start(reported, std::max(page.value_or(0), write.value_or(0)), out);
  return out;
}

}  // namespace ssdprobe
