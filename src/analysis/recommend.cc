#include "analysis/recommend.h"

#include <cctype>
#include <fmt/format.h>
#include <numeric>

#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kFilesystemBlock = 4096;

// The unit a filesystem should stripe to: the write unit when known (it is
// what misaligned writes pay for), else the read page.
std::optional<uint64_t> stripe_unit(const GeometryForRecommendation& g) {
  if (g.write_unit) return g.write_unit;
  return g.read_page;
}

std::string size_arg(uint64_t bytes) {
  if (bytes % kMiB == 0) return fmt::format("{}m", bytes / kMiB);
  if (bytes % 1024 == 0) return fmt::format("{}k", bytes / 1024);
  return fmt::format("{}", bytes);
}

void filesystem_commands(Recommendations& r, const GeometryForRecommendation& g, const std::string& part) {
  const auto unit = stripe_unit(g);
  if (unit && *unit > kFilesystemBlock && *unit % kFilesystemBlock == 0) {
    r.commands["mkfs_xfs"] = fmt::format("mkfs.xfs -d su={},sw=1 {}", size_arg(*unit), part);
    const uint64_t stride = *unit / kFilesystemBlock;
    r.commands["mkfs_ext4"] = fmt::format("mkfs.ext4 -b 4096 -E stride={},stripe_width={} {}", stride, stride, part);
  } else {
    r.commands["mkfs_xfs"] = fmt::format("mkfs.xfs {}", part);
    r.commands["mkfs_ext4"] = fmt::format("mkfs.ext4 -b 4096 {}", part);
    if (unit) r.notes.push_back(fmt::format("the {} unit is not larger than a 4 KiB filesystem block: no stripe "
                                            "settings are needed", format_size(*unit)));
  }
  // F2FS allocates 2 MiB segments; a section should span an erase block.
  if (g.erase_block && *g.erase_block % (2 * kMiB) == 0) {
    r.commands["mkfs_f2fs"] = fmt::format("mkfs.f2fs -s {} {}", *g.erase_block / (2 * kMiB), part);
  } else {
    r.commands["mkfs_f2fs"] = fmt::format("mkfs.f2fs {}", part);
  }
  r.commands["pvcreate"] = fmt::format("pvcreate --dataalignment {} {}", size_arg(r.partition_alignment_bytes), part);
}

}  // namespace

std::string first_partition_path(const std::string& disk_path) {
  if (!disk_path.empty() && std::isdigit(static_cast<unsigned char>(disk_path.back()))) return disk_path + "p1";
  return disk_path + "1";
}

Recommendations recommend(const GeometryForRecommendation& g, const std::string& disk_path,
                          const std::string& partition_path, bool target_is_partition) {
  Recommendations r;
  uint64_t alignment = kMiB;
  for (const auto& unit : {g.read_page, g.write_unit, g.erase_block}) {
    if (unit && *unit > 0) alignment = std::lcm(alignment, *unit);
  }
  r.partition_alignment_bytes = alignment;
  r.partition_start_bytes = alignment;
  r.filesystem_block_bytes = kFilesystemBlock;
  if (alignment == kMiB) {
    r.notes.push_back("1 MiB alignment (the default of parted, fdisk, sfdisk and LVM) is already a multiple of "
                      "every unit determined: the defaults are right for this drive");
  } else {
    r.notes.push_back(fmt::format("partitions should start on multiples of {}, not just 1 MiB", format_size(alignment)));
  }
  const uint64_t start_sectors = r.partition_start_bytes / g.logical_block;
  r.commands["parted"] = fmt::format("parted --script --align none {} mklabel gpt unit B mkpart primary {}B 100%",
                                     disk_path, r.partition_start_bytes);
  r.commands["sfdisk"] = fmt::format("printf 'label: gpt\\nstart={}, type=linux\\n' | sfdisk {}", start_sectors, disk_path);
  r.notes.push_back("the parted and sfdisk commands write a new partition table: run them only on an empty drive");
  if (target_is_partition) {
    r.notes.push_back("the target is a partition: the filesystem commands act on it directly");
  }
  filesystem_commands(r, g, partition_path);
  return r;
}

}  // namespace ssdprobe
