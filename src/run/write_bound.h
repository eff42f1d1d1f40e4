// The most a --write run can write to the target, from the same caps the
// write phases use: the question before the first write states it, and no
// run writes more. Each phase's share is an upper bound; --budget usually
// ends the phases well before their caps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/units.h"
#include "device/target.h"

namespace ssdprobe {

// At most this much is written by the write grid (the stream adds two passes
// over the window): enough for a verdict, little wear.
constexpr uint64_t kWriteGridByteCap = 1ull << 30;

struct WriteBound {
  uint64_t slc_cache = 0;          // --cache-bytes: both fills of the SLC cache probe
  uint64_t slc_flat_stop = 0;      // where its fill ends at a flat speed (0: only at its cap); not in total()
  uint64_t write_grid = 0;         // kWriteGridByteCap
  uint64_t erase_stream = 0;       // two sequential passes over the window
  uint64_t write_parallelism = 0;  // kWriteParallelismByteCap
  uint64_t open_units = 0;         // kOpenUnitsByteCap
  uint64_t restore = 0;            // the window written back (0: --no-preserve, or a sim)

  uint64_t total() const { return slc_cache + write_grid + erase_stream + write_parallelism + open_units + restore; }
  // "SLC cache probe <= 16 GiB, write grid <= 1 GiB, erase stream <= 512 MiB (two passes), ..."
  std::string breakdown() const;
};

// `slc_fill_bytes`: slc_fill_cap() of the run; `slc_flat_bytes`: its slc_flat_stop().
WriteBound write_bound(const Region& window, bool restored, uint64_t slc_fill_bytes, uint64_t slc_flat_bytes = 0);

// The size of the drive a target is, or is a partition of (a disk on NVMe,
// SATA, SAS, USB or SD/MMC, or a simulated drive): the disk's size,
// since a partition's writes fill the whole drive's cache. nullopt for a
// file, and on a loop, virtio, plain SCSI, md or device-mapper device,
// whose size says nothing of the drive under it. (An NVMe namespace is taken
// for its drive: a drive split into several namespaces is rare where SLC
// caches are.)
std::optional<uint64_t> whole_drive_bytes(const Target& target);

// The most the SLC cache probe writes: --cache-bytes, and never more than it
// takes to confirm a cache as large as the whole drive. An SLC cache keeps
// one bit in a cell that otherwise keeps two or more, over raw flash of at
// most twice the capacity, so it holds at most the capacity; a drop needs a
// fifth more written after it (analysis/throughput_drop.h). On a 1 GiB
// device a fill of 16 GiB only rewrote the window, wore it and set off the
// garbage collection the write grid then ran into.
uint64_t slc_fill_cap(uint64_t cache_bytes, std::optional<uint64_t> drive_bytes);

// Where a fill at a flat speed ends on a drive of known size (0: no such end:
// the drive's size unknown, or the end not below `cap_bytes`, the fill's
// cap, slc_fill_cap): once it could have confirmed a cache of a third of
// the capacity. A TLC drive with all its flash in SLC mode holds about that
// (a QLC drive a quarter), so a flat fill there has found no cache worth its
// wear; only a two-bit (MLC) drive's could be larger. A step seen keeps the
// fill going to slc_fill_cap. On a full 768 MiB drive the fill to 1.2 times
// its capacity took 91 s of garbage collection before the write grid.
uint64_t slc_flat_stop(uint64_t cap_bytes, std::optional<uint64_t> drive_bytes);

// The share of the capacity slc_flat_stop confirms a cache up to.
constexpr uint64_t kFlatStopCapacityDivisor = 3;

}  // namespace ssdprobe
