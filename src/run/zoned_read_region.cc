#include "run/zoned_read_region.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/error.h"
#include "device/zone_extents.h"

namespace ssdprobe {
namespace {

// "48 MiB at 0, 20 MiB at 64 MiB, ... (5 stretches)": where the data is,
// for a message that tells the user which --region would do.
std::string where_written(std::span<const WrittenExtent> extents) {
  constexpr size_t kShown = 3;
  std::string text;
  for (size_t i = 0; i < extents.size() && i < kShown; ++i) {
    text += fmt::format("{}{} at {}", i ? ", " : "", format_exact_size(extents[i].length),
                        format_exact_size(extents[i].offset));
  }
  if (extents.size() > kShown) text += fmt::format(", ... ({} stretches)", extents.size());
  return text;
}

uint64_t total_length(std::span<const WrittenExtent> extents) {
  uint64_t total = 0;
  for (const WrittenExtent& e : extents) total += e.length;
  return total;
}

}  // namespace

ZonedReadRegion zoned_read_region(std::span<const Zone> zones, const std::string& path, uint64_t disk_start,
                                  uint64_t size, const Region& given) {
  const std::vector<WrittenExtent> extents = written_extents(zones, disk_start, size);
  const auto longest = longest_written_extent(extents);
  if (!longest) {
    throw Error(ErrorCategory::target,
                fmt::format("{} is a zoned device with no written data ({} zones, none written below a write "
                            "pointer): a read above a write pointer is answered without reading flash, so the read "
                            "probes would time nothing of the drive. Put data in some zones first (a filesystem made "
                            "as `ssdprobe info {}` advises, or sequential writes from a zone's start), or use "
                            "`ssdprobe info` and `ssdprobe audit`, which read no data",
                            path, zones.size(), path));
  }
  const bool region_given = given.offset != 0 || given.length != 0;
  if (region_given) {
    if (auto why = region_above_write_pointer(extents, given, size)) {
      throw Error(ErrorCategory::usage,
                  fmt::format("--region {}:{} on the zoned device {}: {}; reads must stay below the write pointers. "
                              "Written data: {}",
                              given.offset, given.length, path, *why, where_written(extents)));
    }
    return {given, {"zoned device: the --region lies in written data, below the write pointers"}};
  }
  ZonedReadRegion chosen{{longest->offset, longest->length}, {}};
  chosen.notes.push_back(fmt::format(
      "zoned device: the reads stay below the write pointers, in the longest stretch of written data ({} at offset "
      "{}, {} zone{}); {} of written data in all, in {} stretch{}",
      format_exact_size(longest->length), format_exact_size(longest->offset), longest->zones,
      longest->zones == 1 ? "" : "s", format_size(total_length(extents)), extents.size(),
      extents.size() == 1 ? "" : "es"));
  return chosen;
}

Options with_zoned_read_region(const Target& target, const Options& options, ZonedReads& reads) {
  const auto& zoned = target.topology.zoned;
  if (!zoned || !zoned->zoned() || target.topology.disk_name.empty()) return options;
  std::vector<Zone> zones;
  try {
    zones = read_zone_report("/dev/" + target.topology.disk_name);
  } catch (const Error& e) {
    reads.notes.push_back(fmt::format("zoned device whose zone report could not be read ({}): reads may land above "
                                      "a write pointer, where they time the controller's answer, not the flash",
                                      e.what()));
    return options;
  }
  const uint64_t size = target.device->limits().size_bytes;
  const uint64_t start = target.topology.partition_start_bytes;
  if (options.write && written_extents(zones, start, size).empty()) {
    reads.skipped = "nothing is written below this zoned device's write pointers, and a read above one is answered "
                    "without reading flash";
    return options;
  }
  ZonedReadRegion chosen = zoned_read_region(zones, target.path, start, size, options.write ? Region{} : options.region);
  if (options.write && options.region_given()) {
    reads.notes.push_back("zoned device: --region chose the empty zones to write; the reads keep to written data");
  }
  reads.notes.insert(reads.notes.end(), chosen.notes.begin(), chosen.notes.end());
  reads.in_written_data = true;
  Options used = options;
  used.region = chosen.region;
  return used;
}

std::optional<std::string> skip_reads_if_nothing_written(const RunContext& run) {
  if (run.reads_skipped.empty()) return std::nullopt;
  return run.reads_skipped;
}

std::optional<Region> read_region(const Target& target, const Options& used, const ZonedReads& reads) {
  if (!reads.skipped.empty()) return std::nullopt;
  const uint64_t size = target.device->limits().size_bytes;
  const uint64_t offset = std::min(used.region.offset, size);
  return Region{offset, used.region.length != 0 ? used.region.length : size - offset};
}

std::string read_region_source(const Options& asked, const ZonedReads& reads) {
  if (!reads.skipped.empty()) return "";
  const bool region_for_reads = asked.region_given() && !(reads.in_written_data && asked.write);
  if (region_for_reads) return "option";
  return reads.in_written_data ? "written_data" : "target";
}

GridPlan plan_first_read_grid(const Target& target, const Options& used, const Options& asked, ZonedReads& reads) {
  try {
    return plan_read_grid(grid_plan_input(target, used.region));
  } catch (const Error& e) {
    const bool chose_region = reads.in_written_data && (asked.write || !asked.region_given());
    if (e.category() != ErrorCategory::target || !chose_region) throw;
    const std::string why = fmt::format("reads stay below the write pointers, and the longest stretch of written data "
                                        "({} at offset {}) is too short: {}",
                                        format_exact_size(used.region.length),
                                        format_exact_size(used.region.offset), e.what());
    if (!asked.write) throw Error(ErrorCategory::target, "zoned device: " + why);
    reads.skipped = why;
    reads.in_written_data = false;
    return plan_read_grid(grid_plan_input(target, asked.region));  // not used: the read phases are skipped
  }
}

}  // namespace ssdprobe
