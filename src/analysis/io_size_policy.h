// The one rule for the sizes a drive should be addressed in, from its
// measured units: the run's verdict and compare's quirk table both state it,
// so they can never recommend different things for the same drive.
//   physical block = the larger of the read page and the write unit: an IO
//     smaller than it, or not aligned to it, costs a whole one (a page read,
//     a read-modify-write). ZFS's ashift is its log2 where it is a power of two.
//   optimal IO     = the erase block, where one was found.
// Partition starts need no more than 1 MiB unless a unit does not divide it
// (analysis/recommend.h partition_alignment).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

namespace ssdprobe {

struct IoSizePolicy {
  std::optional<uint64_t> physical_block;
  std::optional<unsigned> ashift;
  std::optional<uint64_t> optimal_io;
};

inline IoSizePolicy io_size_policy(const std::optional<uint64_t>& read_page, const std::optional<uint64_t>& write_unit,
                                   const std::optional<uint64_t>& erase_block) {
  IoSizePolicy policy;
  if (read_page || write_unit) {
    const uint64_t unit = std::max(read_page.value_or(0), write_unit.value_or(0));
    policy.physical_block = unit;
    if (std::has_single_bit(unit)) policy.ashift = static_cast<unsigned>(std::countr_zero(unit));
  }
  policy.optimal_io = erase_block;
  return policy;
}

}  // namespace ssdprobe
