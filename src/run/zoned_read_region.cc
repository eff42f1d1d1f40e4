#include "run/zoned_read_region.h"

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

}  // namespace ssdprobe
