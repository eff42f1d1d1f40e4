// The drive-quirk table: for each model + firmware (+ capacity) whose runs
// agree on a unit larger than what the drive reports, the units to use
// instead. Today the kernel (its ATA/NVMe quirk lists), xfsprogs and ZFS
// (its table of drives that under-report their sector size) keep such lists
// by hand; this one is generated from measurements.
//
// The rule (docs/compare.md "The quirk rule"): a unit enters the table only
// when at least kQuirkMinRuns timed runs measured it and at least
// kAgreementPercent % of them found the same size; a group gets a row only
// when such an agreed unit shows that a reported field is too small
// (physical_block_size or minimum_io_size below the larger of the agreed read
// page and write unit; optimal_io_size 0, absent, or not a multiple of an
// agreed erase block).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compare/fleet_comparison.h"

namespace ssdprobe {

struct QuirkRow {
  std::string model, firmware;
  uint64_t size_bytes = 0;
  uint32_t drives = 0, runs = 0;
  // What the drives report (the group's most frequent value).
  std::optional<uint64_t> logical_block, physical_block, minimum_io, optimal_io;
  std::vector<std::pair<std::string, uint64_t>> firmware_geometry;
  // Agreed by the rule above; nullopt where the runs do not agree enough.
  std::optional<uint64_t> read_page, write_unit, erase_block;
  // What to use instead (analysis/block_size_policy.h): the physical block
  // and ZFS's ashift for the agreed read page and write unit; no optimal IO
  // size (the erase block is not one).
  std::optional<uint64_t> physical_block_bytes, optimal_io_bytes;
  std::optional<unsigned> ashift;
  std::vector<std::string> reasons;  // which reported fields the measurement contradicts, in words
};

std::vector<QuirkRow> quirk_table(const FleetComparison& comparison);

}  // namespace ssdprobe
