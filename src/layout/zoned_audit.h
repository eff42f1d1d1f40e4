// The audit's one zoned-device check: a partition table on a host-managed
// zoned device. The kernel never reads partitions there (a host-managed
// disk gets no partition devices), so a table found on one describes
// nothing the system uses: left from another use of the device, or written
// by a tool that did not know. Filesystems go on the whole device.
#pragma once

#include <optional>

#include "device/zoned.h"
#include "layout/audit.h"

namespace ssdprobe {

// The finding, or nullopt when the device is not host-managed or carries no
// table. `zone_bytes` sizes the fix (resetting the first zone removes it).
std::optional<AuditLine> zoned_partition_table_finding(const DiskLayout& layout, const ZonedLimits& zoned);

}  // namespace ssdprobe
