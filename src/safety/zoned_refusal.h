// Write probes on a zoned block device. ssdprobe's write probes write at
// offsets all over their window; a host-managed zoned device (NVMe ZNS, SMR)
// rejects any write that is not at a zone's write pointer, and its restore
// writes would be rejected the same way, so the drive would be left with
// the probe's data. A host-aware device accepts them but remaps them in its
// own way, so the measurement would describe that, not the flash. Until
// zone-safe write probes exist (sequential writes into empty zones, given
// back with a zone reset), a write run on either is refused before anything
// is opened for writing.
#pragma once

#include "device/target.h"

namespace ssdprobe {

// Throws Error(refused) naming the zone model when `target` is a block
// device or partition on a zoned device; returns quietly otherwise. Files
// are not refused: the filesystem under them places their blocks.
void refuse_zoned_writes(const Target& target);

}  // namespace ssdprobe
