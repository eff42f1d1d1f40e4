// The kernel's zone report (BLKREPORTZONE, <linux/blkzoned.h>) of a zoned
// block device, and a summary of it for the result document: how many zones
// of each type and condition, their size and capacity, and how much lies
// below the write pointers. Reporting zones only reads; nothing here resets,
// opens or finishes a zone.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ssdprobe {

// One zone, in bytes (the kernel reports 512 B sectors whatever the LBA
// size). type and cond keep the kernel's codes (BLK_ZONE_TYPE_*,
// BLK_ZONE_COND_*).
struct Zone {
  uint64_t start_bytes = 0;
  uint64_t length_bytes = 0;
  uint64_t write_pointer_bytes = 0;  // absolute, like start
  uint64_t capacity_bytes = 0;       // = length when the kernel does not report capacity
  uint8_t type = 0;
  uint8_t cond = 0;
  bool reset_recommended = false;
};

// Reads every zone of the open block device `fd` (`path` names it in
// errors). Throws Error(unsupported) when the device takes no zone report
// (not zoned, or a kernel without it), Error(io) otherwise.
std::vector<Zone> read_zone_report(int fd, const std::string& path);
// Opens `path` read-only and reads its zones.
std::vector<Zone> read_zone_report(const std::string& path);

struct ZoneSummary {
  uint64_t zones = 0;
  std::optional<uint64_t> zone_bytes;                 // of the first zone (the last may be smaller)
  std::optional<uint64_t> zone_capacity_bytes;        // of the first sequential zone
  std::optional<uint64_t> zone_capacity_min_bytes, zone_capacity_max_bytes;  // over sequential zones
  uint64_t conventional = 0, sequential_write_required = 0, sequential_write_preferred = 0;
  uint64_t not_write_pointer = 0, empty = 0, implicitly_open = 0, explicitly_open = 0, closed = 0;
  uint64_t read_only = 0, full = 0, offline = 0;
  uint64_t reset_recommended = 0;
  // Bytes below the write pointers of sequential zones (a full zone counts
  // its capacity): what can be read back as written data. Conventional zones
  // have no write pointer and are not counted.
  uint64_t written_bytes = 0;
  uint64_t conventional_bytes = 0;
};

ZoneSummary summarize_zones(std::span<const Zone> zones);

}  // namespace ssdprobe
