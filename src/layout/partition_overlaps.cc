#include "layout/partition_overlaps.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

namespace ssdprobe {
uint64_t partition_end(const PartitionEntry& p) {
  return p.size_bytes > std::numeric_limits<uint64_t>::max() - p.start_bytes ? std::numeric_limits<uint64_t>::max()
                                                                             : p.start_bytes + p.size_bytes;
}

namespace {

bool overlap(const PartitionEntry& a, const PartitionEntry& b) {
  return a.start_bytes < partition_end(b) && b.start_bytes < partition_end(a);
}

class OverlapFinder {
 public:
  explicit OverlapFinder(const PartitionTable& table) : table_(table), found_(table.partitions.size()) {}

  std::vector<PartitionOverlap> find() {
    std::vector<size_t> data, containers;
    for (size_t i = 0; i < table_.partitions.size(); ++i) {
      const PartitionEntry& p = table_.partitions[i];
      if (p.size_bytes == 0) continue;
      (p.container ? containers : data).push_back(i);
    }
    sweep(data);
    count_data_overlaps(data);
    compare_containers(containers, data);
    std::vector<PartitionOverlap> result;
    for (size_t i = 0; i < found_.size(); ++i) {
      if (found_[i].count == 0) continue;
      found_[i].index = i;
      result.push_back(std::move(found_[i]));
    }
    return result;
  }

 private:
  void name(size_t a, size_t b) {
    if (found_[a].others.size() < kNamedOverlaps) found_[a].others.push_back(b);
  }

  // In order of start, with the partitions still open (by end): each one
  // overlaps every open partition. It names the first few and is named by
  // them, so every partition that overlaps another gets at least one name
  // (the first to overlap it finds only it open).
  void sweep(std::vector<size_t> order) {
    const auto& parts = table_.partitions;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::pair(parts[a].start_bytes, a) < std::pair(parts[b].start_bytes, b);
    });
    std::set<std::pair<uint64_t, size_t>> open;
    for (const size_t x : order) {
      while (!open.empty() && open.begin()->first <= parts[x].start_bytes) open.erase(open.begin());
      size_t named = 0;
      for (auto it = open.begin(); it != open.end() && named < kNamedOverlaps; ++it, ++named) {
        name(x, it->second);
        name(it->second, x);
      }
      open.emplace(partition_end(parts[x]), x);
    }
  }

  // Partitions that start before x ends, less those that end before x
  // starts (each of which also starts before x ends), less x itself.
  void count_data_overlaps(const std::vector<size_t>& data) {
    std::vector<uint64_t> starts, ends;
    for (const size_t i : data) {
      starts.push_back(table_.partitions[i].start_bytes);
      ends.push_back(partition_end(table_.partitions[i]));
    }
    std::sort(starts.begin(), starts.end());
    std::sort(ends.begin(), ends.end());
    for (const size_t x : data) {
      const PartitionEntry& p = table_.partitions[x];
      const auto begun = std::lower_bound(starts.begin(), starts.end(), partition_end(p)) - starts.begin();
      const auto ended = std::upper_bound(ends.begin(), ends.end(), p.start_bytes) - ends.begin();
      found_[x].count += static_cast<size_t>(begun - ended) - 1;
    }
  }

  // A DOS table has at most four containers (primary slots): each against
  // the others and the primary partitions, directly.
  void compare_containers(const std::vector<size_t>& containers, const std::vector<size_t>& data) {
    const auto& parts = table_.partitions;
    for (size_t c = 0; c < containers.size(); ++c) {
      for (size_t d = c + 1; d < containers.size(); ++d) pair_up(containers[c], containers[d]);
      for (const size_t p : data) {
        if (parts[p].number <= 4) pair_up(containers[c], p);
      }
    }
  }

  void pair_up(size_t a, size_t b) {
    if (!overlap(table_.partitions[a], table_.partitions[b])) return;
    ++found_[a].count;
    ++found_[b].count;
    name(a, b);
    name(b, a);
  }

  const PartitionTable& table_;
  std::vector<PartitionOverlap> found_;
};

}  // namespace

std::vector<PartitionOverlap> find_overlaps(const PartitionTable& table) { return OverlapFinder(table).find(); }

}  // namespace ssdprobe
