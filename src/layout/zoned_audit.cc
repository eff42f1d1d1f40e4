#include "layout/zoned_audit.h"

#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {

namespace {

FixStep reset_first_zone(const DiskLayout& layout, const ZonedLimits& zoned) {
  const std::string zone = zoned.zone_bytes() ? format_size(*zoned.zone_bytes()) + " " : "";
  return FixStep{fmt::format("blkzone reset --offset 0 --count 1 {}", layout.disk_path),
                 fmt::format("resets the first {}zone, which holds the table (a zoned device cannot overwrite it in "
                             "place); mkfs.btrfs -O zoned and mkfs.f2fs -m reset the zones they use anyway",
                             zone),
                 true, false, "in place, no data moved"};
}

}  // namespace

std::optional<AuditLine> zoned_partition_table_finding(const DiskLayout& layout, const ZonedLimits& zoned) {
  if (zoned.model != "host-managed" || !layout.table) return std::nullopt;
  AuditLine line;
  line.field = "partition_table";
  line.layer = fmt::format("{} partition table", layout.table->scheme);
  line.disk_offset = 0;
  line.ok = false;
  line.severity = Severity::warning;
  const size_t count = layout.table->partitions.size();
  line.message = fmt::format("the kernel does not use partitions on a host-managed zoned device: no /dev node is "
                             "made for {} of this table; put a zoned filesystem (mkfs.btrfs -O zoned, mkfs.f2fs -m) "
                             "on the whole device {}",
                             count == 1 ? std::string("the partition") : fmt::format("any of the {} partitions", count),
                             layout.disk_path);
  line.fix.push_back(reset_first_zone(layout, zoned));
  return line;
}

}  // namespace ssdprobe
