// What the read grid's space holds: a few reads spread over the grid's slots,
// checked for data. Many drives answer a read of never-written or trimmed
// space from the mapping table without sensing NAND, and such a read returns
// one byte everywhere (zeros, or the read-after-trim pattern: NVMe DLFEAT,
// ATA DRAT/RZAT give 0x00 or 0xFF). A flat read grid over such space says
// nothing about the page, so it rules nothing out (run/read_phases.h).
//
// Run after the grid, never before: the sample reads the grid's own slots,
// and a drive's read cache would answer the grid's first reads of them.
#pragma once

#include <cstdint>
#include <optional>

#include "device/device.h"
#include "probes/grid_plan.h"

namespace ssdprobe {

struct ReadContent {
  uint32_t reads = 0;     // sample reads that completed
  uint64_t bytes = 0;     // bytes they returned
  // Set when every byte returned was this one value: the space reads as
  // never written (or trimmed); empty when any byte differed.
  std::optional<uint8_t> only_byte;

  bool blank() const { return reads > 0 && only_byte.has_value(); }
};

// Reads up to `samples` stretches of the plan's slots, each one slot long (at
// most 128 KiB), spread evenly over the slots, one at a time. A read that
// fails ends the sample early: what completed is kept.
ReadContent sample_read_content(Device& device, const GridPlan& plan, uint32_t samples = 32);

}  // namespace ssdprobe
