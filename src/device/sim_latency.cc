#include "device/sim_latency.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/block_math.h"

namespace ssdprobe {

SimLatencyModel::SimLatencyModel(const SimProfile& profile, uint64_t seed)
    : profile_(profile), random_(seed ^ 0x5eed51a7e5eedull), cache_free_bytes_(profile.slc_cache.bytes) {}

double SimLatencyModel::ideal_read_us(uint64_t offset, uint64_t length) const {
  double us = profile_.read_base_us + profile_.transfer_us_per_kib * static_cast<double>(length) / 1024.0;
  if (profile_.read_page > 0) {
    us += profile_.page_sense_us * static_cast<double>(units_touched(offset, length, profile_.read_page));
  }
  for (const auto& level : profile_.read_levels) {
    us += level.crossing_us * static_cast<double>(boundaries_crossed(offset, length, level.unit_bytes));
  }
  return us;
}

namespace {

// Units of `unit` bytes that [offset, offset + length) covers only in part.
uint64_t partly_covered(uint64_t offset, uint64_t length, uint64_t unit) {
  const bool head = offset % unit != 0, tail = (offset + length) % unit != 0;
  if (units_touched(offset, length, unit) == 1) return head || tail ? 1 : 0;
  return (head ? 1 : 0) + (tail ? 1 : 0);
}

}  // namespace

// Transfer, the program units touched, read-modify-write of partly covered
// program and mapping units: what every write costs, native or cached.
double SimLatencyModel::programmed_write_us(uint64_t offset, uint64_t length, uint64_t unit, double program_us,
                                            double rmw_us) const {
  double us = profile_.read_base_us + profile_.transfer_us_per_kib * static_cast<double>(length) / 1024.0;
  us += program_us * static_cast<double>(units_touched(offset, length, unit));
  us += rmw_us * static_cast<double>(partly_covered(offset, length, unit));
  if (profile_.write_map_unit > 0) {
    us += profile_.map_rmw_us * static_cast<double>(partly_covered(offset, length, profile_.write_map_unit));
  }
  return us;
}

double SimLatencyModel::ideal_cached_write_us(uint64_t offset, uint64_t length) const {
  const SimSlcCache& cache = profile_.slc_cache;
  return programmed_write_us(offset, length, cache.program_unit, cache.program_us, cache.rmw_us);
}

void SimLatencyModel::idle(double seconds) {
  const double refill = seconds * profile_.slc_cache.recover_bytes_per_s;
  const uint64_t room = profile_.slc_cache.bytes - cache_free_bytes_;
  cache_free_bytes_ += refill >= static_cast<double>(room) ? room : static_cast<uint64_t>(refill);
}

// A striped drive: the write's program units go to their units in turn and
// are programmed at once, so it costs the busiest unit's programs (a partly
// covered program unit is a whole program, plus its read-modify-write), on
// top of the transfer and the mapping units' read-modify-write.
double SimLatencyModel::striped_write_us(uint64_t offset, uint64_t length) const {
  const uint64_t unit = profile_.program_unit;
  const uint64_t first = offset / unit, last = (offset + length - 1) / unit;
  std::vector<double> busy(profile_.stripe_units, 0.0);
  for (uint64_t page = first; page <= last; ++page) {
    const uint64_t start = std::max(offset, page * unit), end = std::min(offset + length, (page + 1) * unit);
    const bool partial = end - start < unit;
    busy[page % profile_.stripe_units] += profile_.program_us + (partial ? profile_.rmw_us : 0.0);
  }
  double us = profile_.read_base_us + profile_.transfer_us_per_kib * static_cast<double>(length) / 1024.0;
  us += *std::max_element(busy.begin(), busy.end());
  if (profile_.write_map_unit > 0) {
    us += profile_.map_rmw_us * static_cast<double>(partly_covered(offset, length, profile_.write_map_unit));
  }
  return us;
}

double SimLatencyModel::ideal_write_us(uint64_t offset, uint64_t length, bool sequential) const {
  double us = profile_.stripe_units > 1
                  ? striped_write_us(offset, length)
                  : programmed_write_us(offset, length, profile_.program_unit, profile_.program_us, profile_.rmw_us);
  // A sequential stream opens a new erase block with the write that reaches
  // the block's first byte, wherever that write starts.
  const uint64_t block = profile_.erase_block;
  if (sequential && block > 0 && (offset + block - 1) / block * block < offset + length) {
    us += profile_.erase_stall_us;
  }
  return us;
}

bool SimLatencyModel::all_pages_buffered(uint64_t offset, uint64_t length) const {
  if (profile_.read_page == 0 || buffered_pages_.empty()) return false;
  for (uint64_t page = offset / profile_.read_page; page <= (offset + length - 1) / profile_.read_page; ++page) {
    if (std::find(buffered_pages_.begin(), buffered_pages_.end(), page) == buffered_pages_.end()) return false;
  }
  return true;
}

void SimLatencyModel::remember_pages(uint64_t offset, uint64_t length) {
  if (profile_.read_page == 0 || profile_.read_cache_pages == 0) return;
  for (uint64_t page = offset / profile_.read_page; page <= (offset + length - 1) / profile_.read_page; ++page) {
    buffered_pages_.push_back(page);
    if (buffered_pages_.size() > profile_.read_cache_pages) buffered_pages_.pop_front();
  }
}

constexpr uint64_t kGranule = 4096;

bool SimLatencyModel::touches_written(uint64_t offset, uint64_t length) const {
  for (uint64_t g = offset / kGranule; g <= (offset + length - 1) / kGranule; ++g) {
    if (written_granules_.count(g)) return true;
  }
  return false;
}

void SimLatencyModel::remember_written(uint64_t offset, uint64_t length) {
  if (!profile_.unwritten_reads_skip_nand) return;
  for (uint64_t g = offset / kGranule; g <= (offset + length - 1) / kGranule; ++g) written_granules_.insert(g);
}

double SimLatencyModel::apply_noise(double us) {
  double noisy = us * std::exp(profile_.noise_sigma * random_.normal());
  if (profile_.outlier_probability > 0.0 && random_.uniform() < profile_.outlier_probability) {
    noisy += profile_.outlier_us * (0.5 + random_.uniform());
  }
  return noisy;
}

double SimLatencyModel::native_write_us(uint64_t offset, uint64_t length, bool sequential) {
  if (!profile_.erase_fills_by_units_touched) return ideal_write_us(offset, length, sequential);
  double us = ideal_write_us(offset, length, false);
  const uint64_t unit = profile_.program_unit, block = profile_.erase_block;
  if (!sequential || unit == 0 || block < unit) return us;
  units_in_open_block_ += units_touched(offset, length, unit);
  if (units_in_open_block_ >= block / unit) {
    units_in_open_block_ -= block / unit;
    us += profile_.erase_stall_us;
  }
  return us;
}

// Drawn only on a profile that has them, so every other profile's random
// sequence (and so its runs) stays what it was.
double SimLatencyModel::gc_stall_us() {
  if (profile_.gc_stall_probability <= 0.0) return 0.0;
  if (random_.uniform() >= profile_.gc_stall_probability) return 0.0;
  return profile_.gc_stall_us * (0.5 + random_.uniform());
}

// Each erase block the write touches must be open: one that is not takes
// the place of the least recently written, whose rest is folded (copied)
// first. The fold is the drive copying a block's worth, whatever the write:
// the same time on every fold, added after the write's noise and drawing
// nothing from the random sequence (a profile without the limit is
// unchanged). A jittered fold buried the program unit in the write grid's
// random writes, most of which fold on these drives.
double SimLatencyModel::open_unit_fold_us(uint64_t offset, uint64_t length) {
  const uint64_t block = profile_.erase_block;
  if (profile_.open_units == 0 || block == 0) return 0.0;
  double us = 0.0;
  for (uint64_t b = offset / block; b <= (offset + length - 1) / block; ++b) {
    const auto open = std::find(open_blocks_.begin(), open_blocks_.end(), b);
    if (open != open_blocks_.end()) {
      open_blocks_.erase(open);
    } else {
      if (open_blocks_.size() >= profile_.open_units) open_blocks_.pop_back();
      us += profile_.open_unit_fold_us;
    }
    open_blocks_.push_front(b);
  }
  return us;
}

double SimLatencyModel::service_us(IoOp op, uint64_t offset, uint64_t length) {
  double us = 0.0;
  if (op == IoOp::read) {
    // A read served from the controller's page buffer skips the NAND sense:
    // this is why probes must read a fresh location every time.
    const bool unmapped = profile_.unwritten_reads_skip_nand && !touches_written(offset, length);
    if (unmapped || all_pages_buffered(offset, length)) {
      us = profile_.read_base_us + profile_.transfer_us_per_kib * static_cast<double>(length) / 1024.0;
    } else {
      us = ideal_read_us(offset, length);
    }
    remember_pages(offset, length);
  } else {
    if (cache_free_bytes_ >= length) {
      us = ideal_cached_write_us(offset, length);
      cache_free_bytes_ -= length;
    } else {
      us = native_write_us(offset, length, offset == last_write_end_) + gc_stall_us();
      cache_free_bytes_ = 0;
    }
    remember_written(offset, length);
    last_write_end_ = offset + length;
    buffered_pages_.clear();
    const double noisy = apply_noise(us);
    return noisy + open_unit_fold_us(offset, length);
  }
  return apply_noise(us);
}

}  // namespace ssdprobe
