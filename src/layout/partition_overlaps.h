// Partitions of one table that share sectors: a write to one lands in the
// other. Found in O(n log n) (a sweep by start), so a crafted table with
// thousands of entries costs no more than reading them.
#pragma once

#include <cstddef>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

// The most overlapping partitions named for one partition; the rest are counted.
constexpr size_t kNamedOverlaps = 3;

struct PartitionOverlap {
  size_t index = 0;             // into table.partitions
  std::vector<size_t> others;   // up to kNamedOverlaps of the partitions it overlaps (indices)
  size_t count = 0;             // how many partitions it overlaps in all
};

// Every partition that shares a sector with another, in table order. A DOS
// extended partition (a container) is compared with the primary partitions
// and the other containers: the logical partitions lie inside it by design.
std::vector<PartitionOverlap> find_overlaps(const PartitionTable& table);

// The byte after partition `p`'s last, or the largest offset when that
// does not fit in 64 bits (a hostile table's entry).
uint64_t partition_end(const PartitionEntry& p);

}  // namespace ssdprobe
