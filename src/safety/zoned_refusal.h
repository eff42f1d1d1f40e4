// Write probes on a zoned block device. ssdprobe's window write probes
// write at offsets all over their window; a host-managed zoned device (NVMe
// ZNS, SMR) rejects any write that is not at a zone's write pointer, and
// their restore writes would be rejected the same way. On a whole
// host-managed disk a --write run is zone-safe instead (zone_choice.h,
// zone_reset.h): it writes only empty zones, sequentially, and resets them.
// A host-aware device accepts random writes but remaps them in its own way,
// so the measurement would describe that, not the flash; and a partition of
// a host-managed disk cannot reset zones that reach beyond it. Both are
// refused before anything is opened for writing.
#pragma once

#include "device/target.h"

namespace ssdprobe {

// Throws Error(refused) naming the zone model when `target` is a partition
// of a zoned device or a host-aware block device; returns quietly otherwise
// (a whole host-managed disk takes the zone-safe path). Files are not
// refused: the filesystem under them places their blocks.
void refuse_zoned_writes(const Target& target);

}  // namespace ssdprobe
