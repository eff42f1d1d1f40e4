// The latency model of a simulated drive: how long one request takes given
// the profile and what the drive has recently done (its read buffer, where
// the last write ended). Pure of any clock; SimDevice schedules the result.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_set>

#include "core/block_math.h"
#include "core/random.h"
#include "device/device.h"
#include "device/sim_profile.h"

namespace ssdprobe {

class SimLatencyModel {
 public:
  SimLatencyModel(const SimProfile& profile, uint64_t seed);

  // Service time of one request in microseconds, noise included. Updates the
  // drive's state (read buffer, write stream position).
  double service_us(IoOp op, uint64_t offset, uint64_t length);
  // Noise-free read time, for tests and for documentation of the model.
  double ideal_read_us(uint64_t offset, uint64_t length) const;
  double ideal_write_us(uint64_t offset, uint64_t length, bool sequential) const;
  // The same write landing in the SLC cache: its program unit, no erase stall.
  double ideal_cached_write_us(uint64_t offset, uint64_t length) const;
  // The drive had nothing to do for `seconds`: it empties its SLC cache.
  void idle(double seconds);

  const SimProfile& profile() const { return profile_; }
  // Whether a write ever covered part of [offset, offset + length) (tracked
  // only with unwritten_reads_skip_nand).
  bool touches_written(uint64_t offset, uint64_t length) const;

 private:
  double programmed_write_us(uint64_t offset, uint64_t length, uint64_t unit, double program_us,
                             double rmw_us) const;
  double striped_write_us(uint64_t offset, uint64_t length) const;
  bool all_pages_buffered(uint64_t offset, uint64_t length) const;
  void remember_pages(uint64_t offset, uint64_t length);
  double apply_noise(double us);
  void remember_written(uint64_t offset, uint64_t length);
  // A native (uncached) write, with the erase stall of a block filled by
  // the program units writes touch (erase_fills_by_units_touched).
  double native_write_us(uint64_t offset, uint64_t length, bool sequential);
  // The garbage-collection wait of a full drive's native write (0 on others).
  double gc_stall_us();
  // The fold of a write into an erase block that is not open (0 on drives
  // without an open-unit limit, and for writes into open blocks).
  double open_unit_fold_us(uint64_t offset, uint64_t length);

  SimProfile profile_;
  Random random_;
  std::deque<uint64_t> buffered_pages_;  // most recent last
  uint64_t last_write_end_ = UINT64_MAX;
  std::unordered_set<uint64_t> written_granules_;  // 4 KiB granules (only with unwritten_reads_skip_nand)
  uint64_t units_in_open_block_ = 0;  // program units taken in the open erase block
  uint64_t cache_free_bytes_ = 0;                   // room left in the SLC cache
  std::deque<uint64_t> open_blocks_;                // open erase blocks, most recently written first
};

}  // namespace ssdprobe
