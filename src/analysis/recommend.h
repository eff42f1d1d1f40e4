// Turns a detected geometry, and the stack the user has or wants on it (md
// RAID, LVM), into a partition start and the commands that build that stack,
// in the order they would be run. Takes units, layer parameters and device
// nodes, never a grid or a device.
//
// The partition alignment is the least common multiple of 1 MiB (what every
// current partitioner already uses), the read page and write unit that were
// determined and a memory card's allocation unit (not the erase block: a
// note says what aligning to it would buy).
// Filesystem stripe settings (xfs su/sw, ext4 stride/stripe_width) appear
// only where a stripe exists (md RAID 0/4/5/6/10, a striped LV).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/verdicts.h"

namespace ssdprobe {

struct GeometryForRecommendation {
  std::optional<uint64_t> read_page;
  std::optional<uint64_t> write_unit;
  // The stripe beside the write unit (analysis/write_stripe.h): writes of
  // whole stripes use every parallel unit at once. Never an alignment: a
  // partly covered stripe costs nothing of itself.
  std::optional<uint64_t> write_stripe;
  std::optional<uint64_t> erase_block;
  // An SD/eMMC card's allocation unit as its registers state it (the
  // kernel's preferred_erase_size): the card manages data per unit, so
  // partitions start on a multiple of it.
  std::optional<uint64_t> allocation_unit;
  uint64_t logical_block = 512;
  // The write grid's measured cost of covering part of a write unit (the
  // per-partial-block level's step), when it found one.
  std::optional<double> partial_write_cost_us;
  // How much IO to keep in flight and where striping pays (analysis/
  // parallelism.h parallelism_advice): passed through to the notes.
  std::vector<std::string> parallelism_advice;
  // The running kernel (uname -r) and memory page size: which filesystems
  // can use a block larger than the page (analysis/block_size_advice.h).
  // An empty release is an unknown kernel.
  std::string kernel_release;
  uint64_t page_size = 4096;
};

// An md array the target is (or is to be) a member of.
struct MdStripe {
  unsigned level = 0;         // mdadm --level: 0, 1, 4, 5, 6 or 10
  unsigned member_count = 2;  // mdadm --raid-devices
  // Members whose chunks hold data in one stripe; from the level when empty
  // (RAID 10: mdadm's default near-2 layout, members / 2).
  std::optional<unsigned> data_disks;
  // The chunk the user has or wants; empty: ssdprobe chooses one.
  std::optional<uint64_t> chunk_bytes;
};

// The LVM volume group the target is (or is to be) a physical volume of.
struct LvmStripe {
  unsigned physical_volumes = 1;         // PVs in the VG; a striped LV needs at least two
  std::optional<unsigned> stripes;       // lvcreate -i; every PV when empty
  std::optional<uint64_t> stripe_bytes;  // lvcreate -I; empty: ssdprobe chooses one
};

struct StackForRecommendation {
  std::optional<MdStripe> md;
  std::optional<LvmStripe> lvm;  // on the md array when both are set
  // Whole-disk nodes of the other md members or PVs, in order; missing ones
  // become the placeholders DISK2, DISK3, ... (partitions PARTITION2, ...).
  std::vector<std::string> other_disks;
};

// `disk_path` is the whole-disk node the partition commands act on (e.g.
// /dev/nvme0n1); `partition_path` the node of the partition they create, which
// the next layer uses. When the target is a partition, the commands rebuild
// its whole disk with one partition, first_partition_path(disk_path), and a
// note says how to keep the disk's other partitions instead.
Recommendations recommend(const GeometryForRecommendation& geometry, const StackForRecommendation& stack,
                          const std::string& disk_path, const std::string& partition_path, bool target_is_partition);

// A single drive with one filesystem: no md, no LVM.
Recommendations recommend(const GeometryForRecommendation& geometry, const std::string& disk_path,
                          const std::string& partition_path, bool target_is_partition);

// The alignment every partition, and every layer start inside one, should
// have: the least common multiple of 1 MiB and the determined read page and
// write unit. A unit whose multiple would exceed 1 GiB is left out, with a
// note saying so.
uint64_t partition_alignment(const GeometryForRecommendation& geometry, std::vector<std::string>& notes);

// The step with this key, or nullptr.
const RecommendedCommand* find_step(const Recommendations& recommendations, std::string_view key);

// "/dev/nvme0n1" -> "/dev/nvme0n1p1", "/dev/sda" -> "/dev/sda1".
std::string first_partition_path(const std::string& disk_path);

}  // namespace ssdprobe
