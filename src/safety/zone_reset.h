// Giving zones back: a zone reset (BLKRESETZONE) returns a zone to EMPTY
// with its write pointer at its start, which is exactly how a zone-safe
// write run found it. Used by the run itself and by `ssdprobe restore` on a
// zone journal (safety/journal.h), which must reset exactly the journaled
// zones and nothing else.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "device/zone_report.h"
#include "safety/journal.h"

namespace ssdprobe {

// The zones of `report` that `journaled` names, in its order. Each journaled
// range must be exactly one sequential-write-required zone of the report
// (same start and length): anything else means the device is not laid out
// as it was journaled, and Error(refused) is thrown before any reset.
std::vector<Zone> journaled_zones_in(std::span<const Zone> report, std::span<const ZoneRange> journaled,
                                     const std::string& path);

// Resets each range (BLKRESETZONE on the descriptor, open for writing).
// Resetting an empty zone is harmless. Throws Error(io) naming the zone.
void reset_zones(int fd, std::span<const ZoneRange> zones, const std::string& path);

// Reads a fresh zone report and checks every range is EMPTY with its write
// pointer at its start. Throws Error(io) naming the first that is not.
void verify_zones_empty(int fd, std::span<const ZoneRange> zones, const std::string& path);

// Reset, then verify.
void reset_and_verify_zones(int fd, std::span<const ZoneRange> zones, const std::string& path);

}  // namespace ssdprobe
