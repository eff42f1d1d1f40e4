#include "analysis/zoned_advice.h"

#include <fmt/format.h>

#include "analysis/block_size_policy.h"
#include "core/shell_command.h"
#include "core/units.h"

namespace ssdprobe {

namespace {

RecommendedCommand filesystem_step(std::string key, std::string command, std::string purpose,
                                   const std::string& disk_path) {
  return {std::move(key), std::move(command), std::move(purpose), true,
          fmt::format("creates a new filesystem on {}: every file on it is lost", disk_path), "filesystem"};
}

RecommendedCommand btrfs_step(const std::string& disk) {
  return filesystem_step("mkfs_btrfs_zoned", render_command({{"mkfs.btrfs", "-f", "-O", "zoned", "-d", "single", "-m", "single", disk}}),
                         fmt::format("btrfs in zoned mode on the whole of {}: it writes every zone sequentially from "
                                     "its write pointer and resets zones to reclaim them; single data and metadata "
                                     "profiles, which every kernel with zoned btrfs (5.12 and later) supports",
                                     disk),
                         disk);
}

// F2FS keeps its metadata where it can overwrite in place: in conventional
// zones, or on a second, regular device when the zoned one has none (ZNS).
RecommendedCommand f2fs_step(const ZonedForRecommendation& z, const std::string& disk) {
  if (z.conventional_bytes && *z.conventional_bytes > 0) {
    return filesystem_step("mkfs_f2fs_zoned", render_command({{"mkfs.f2fs", "-f", "-m", disk}}),
                           fmt::format("F2FS in zoned block device mode (-m) on the whole of {}, its metadata in the "
                                       "device's {} of conventional zones",
                                       disk, format_size(*z.conventional_bytes)),
                           disk);
  }
  return filesystem_step("mkfs_f2fs_zoned", render_command({{"mkfs.f2fs", "-f", "-m", "-c", disk, "CONVENTIONAL_DEVICE"}}),
                         fmt::format("F2FS in zoned block device mode (-m): {} has no conventional zones{}, so F2FS "
                                     "keeps its metadata on CONVENTIONAL_DEVICE, a placeholder for a regular block "
                                     "device (a partition of a conventional disk, all of whose contents are lost), "
                                     "and -c adds {} as its zoned data device",
                                     disk, z.conventional_bytes ? "" : " as far as ssdprobe knows (no zone report)",
                                     disk),
                         disk);
}

std::string zones_note(const ZonedForRecommendation& z, const std::string& disk) {
  std::string zones;
  if (z.zone_bytes) zones = fmt::format(" with {} zones", format_size(*z.zone_bytes));
  if (z.zone_bytes && z.zone_capacity_bytes && *z.zone_capacity_bytes < *z.zone_bytes) {
    zones += fmt::format(" of which {} each can be written", format_size(*z.zone_capacity_bytes));
  }
  if (z.model == "host-managed") {
    return fmt::format("{} is a host-managed zoned device{}: it accepts writes only sequentially in each zone, so only "
                       "zoned filesystems can use it (btrfs -O zoned, F2FS -m); XFS and ext4 cannot",
                       disk, zones);
  }
  return fmt::format("{} is a host-aware zoned device{}: any filesystem works, but random writes are slow on it; "
                     "btrfs -O zoned and F2FS -m write its zones sequentially",
                     disk, zones);
}

std::string partition_note(const ZonedForRecommendation& z, const std::string& disk) {
  if (z.model == "host-managed") {
    return fmt::format("no partition table: the kernel does not use partitions on a host-managed zoned device, so the "
                       "filesystem takes the whole of {}", disk);
  }
  return fmt::format("no partition table: the kernel stops treating a host-aware device with partitions as zoned, so "
                     "the filesystem takes the whole of {}", disk);
}

}  // namespace

Recommendations recommend_zoned(const ZonedForRecommendation& z, const std::string& disk_path) {
  Recommendations r;
  r.partition_start_bytes = 0;
  r.partition_alignment_bytes = z.zone_bytes.value_or(uint64_t{1} << 20);
  r.filesystem_block_bytes = kDefaultFilesystemBlock;
  r.notes.push_back(zones_note(z, disk_path));
  r.notes.push_back(partition_note(z, disk_path));
  r.steps.push_back(btrfs_step(disk_path));
  r.steps.push_back(f2fs_step(z, disk_path));
  return r;
}

}  // namespace ssdprobe
