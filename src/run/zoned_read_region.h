// The part of a zoned target a read run uses: its written data only. Above
// a write pointer the controller answers a read without touching flash
// (zeros, or an error on some devices), so timing it would describe the
// controller, and a page found there would be nobody's page. With no
// --region the run reads the longest stretch of written data; a --region
// that reaches above a write pointer is refused, as is a device with
// nothing written.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/units.h"
#include "device/zone_report.h"

namespace ssdprobe {

struct ZonedReadRegion {
  Region region;                   // what the read probes use
  std::vector<std::string> notes;  // what was readable, for the document
};

// `zones`: the disk's zone report; the target is `size` bytes from disk
// byte `disk_start` (a partition's start; 0 for the whole disk); `given`:
// --region (length 0 and offset 0: none). Throws Error(target) when no
// zone holds data, Error(usage) when `given` is not all written data.
ZonedReadRegion zoned_read_region(std::span<const Zone> zones, const std::string& path, uint64_t disk_start,
                                  uint64_t size, const Region& given);

}  // namespace ssdprobe
