#include "device/sim_latency.h"

#include <algorithm>
#include <cmath>

namespace ssdprobe {

SimLatencyModel::SimLatencyModel(const SimProfile& profile, uint64_t seed)
    : profile_(profile), random_(seed ^ 0x5eed51a7e5eedull) {}

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

double SimLatencyModel::ideal_write_us(uint64_t offset, uint64_t length, bool sequential) const {
  const uint64_t unit = profile_.program_unit;
  double us = profile_.read_base_us + profile_.transfer_us_per_kib * static_cast<double>(length) / 1024.0;
  us += profile_.program_us * static_cast<double>(units_touched(offset, length, unit));
  const bool head_partial = offset % unit != 0;
  const bool tail_partial = (offset + length) % unit != 0;
  const uint64_t partial = units_touched(offset, length, unit) == 1
                               ? (head_partial || tail_partial ? 1 : 0)
                               : (head_partial ? 1 : 0) + (tail_partial ? 1 : 0);
  us += profile_.rmw_us * static_cast<double>(partial);
  if (profile_.write_map_unit > 0) {
    const uint64_t map = profile_.write_map_unit;
    const bool map_head = offset % map != 0, map_tail = (offset + length) % map != 0;
    const uint64_t map_partial = units_touched(offset, length, map) == 1 ? (map_head || map_tail ? 1 : 0)
                                                                          : (map_head ? 1 : 0) + (map_tail ? 1 : 0);
    us += profile_.map_rmw_us * static_cast<double>(map_partial);
  }
  if (sequential && profile_.erase_block > 0 && offset % profile_.erase_block == 0) {
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
    us = ideal_write_us(offset, length, offset == last_write_end_);
    remember_written(offset, length);
    last_write_end_ = offset + length;
    buffered_pages_.clear();
  }
  return apply_noise(us);
}

}  // namespace ssdprobe
