// Partition starts: moved with their data by `sfdisk --move-data` where an
// aligned start with the same size fits between the neighbours; otherwise
// the backup and recreate path. Then the kernel is told (partx), and the
// filesystem checked read-only at its new place. Commands are argument
// lists (core/shell_command.h): the disk's path is the user's and may hold
// anything a file name can.
#include <fmt/format.h>

#include <algorithm>

#include "core/block_math.h"
#include "core/units.h"
#include "layout/audit_fix_steps.h"

namespace ssdprobe {
namespace {

// Where a partition may lie: after the previous partition's end, before the
// next one's start and the disk's end (less GPT's backup table).
struct Room {
  uint64_t low = 0, high = 0;
};

// The free space around a partition. A DOS extended partition (a container)
// is an obstacle like any other for a primary partition; a logical one must
// stay inside its container, past the boot record that starts its chain.
Room room_around(const DiskLayout& layout, const PartitionEntry& self) {
  const PartitionTable& table = *layout.table;
  const bool gpt = table.scheme == "gpt";
  const bool logical = table.scheme == "dos" && self.number > 4;
  Room room{(gpt ? 34 : 1) * uint64_t{table.sector_bytes}, layout.disk_size_bytes};
  if (gpt) room.high -= std::min<uint64_t>(room.high, 33 * uint64_t{table.sector_bytes});
  for (const auto& other : table.partitions) {
    if (other.number == self.number) continue;
    if (other.container) {
      if (!logical) {
        if (other.start_bytes >= self.start_bytes) room.high = std::min(room.high, other.start_bytes);
        else room.low = std::max(room.low, other.start_bytes + other.size_bytes);
      } else if (other.start_bytes <= self.start_bytes) {
        room.low = std::max(room.low, other.start_bytes + table.sector_bytes);
        room.high = std::min(room.high, other.start_bytes + other.size_bytes);
      }
      continue;
    }
    const uint64_t end = other.start_bytes + other.size_bytes;
    if (other.start_bytes >= self.start_bytes) room.high = std::min(room.high, other.start_bytes);
    else room.low = std::max(room.low, end);
  }
  return room;
}

// The aligned start the data moves to, if the partition fits there whole:
// the next aligned start above, else the one below.
std::optional<uint64_t> aligned_start_with_room(const DiskLayout& layout, const PartitionEntry& p, uint64_t align) {
  const Room room = room_around(layout, p);
  const uint64_t up = align_up(p.start_bytes, align);
  if (up >= p.start_bytes && up + p.size_bytes >= up && up + p.size_bytes <= room.high) return up;
  const uint64_t down = align_down(p.start_bytes, align);
  if (down >= room.low && down > 0) return down;
  return std::nullopt;
}

FixStep tell_kernel(const FixTarget& t, int number) {
  return in_place({{"partx", "--update", "--nr", std::to_string(number), t.disk}},
                  fmt::format("make the kernel address partition {} where the table now says (sfdisk's own re-read "
                              "fails while a partition of the disk is in use; a reboot also does it)", number));
}

std::optional<FixStep> check_filesystem(const FixTarget& t) {
  if (!t.stack.filesystem) return std::nullopt;
  const std::string& type = t.stack.filesystem->type;
  FixCommand command{{}};
  if (type == "ext2" || type == "ext3" || type == "ext4") command.words = {"e2fsck", "-fn", t.node};
  if (type == "xfs") command.words = {"xfs_repair", "-n", t.node};
  if (command.words.empty()) return std::nullopt;
  return in_place(command, fmt::format("check read-only that the {} reads at its new start", type));
}

std::string sectors(uint64_t bytes, uint32_t sector) { return std::to_string(bytes / std::max(sector, 1u)); }

// sfdisk's script for one partition: "START,SIZE" in sectors, on its input.
FixCommand sfdisk_partition(const FixTarget& t, uint64_t start, uint64_t size, bool move_data) {
  const PartitionEntry& p = *t.stack.partition;
  const uint32_t sector = t.layout.table->sector_bytes;
  FixCommand command{{"sfdisk"}, {sectors(start, sector) + "," + sectors(size, sector)}};
  if (move_data) command.words.emplace_back("--move-data");
  command.words.insert(command.words.end(), {t.disk, "-N", std::to_string(p.number)});
  return command;
}

std::vector<FixStep> move_partition(const FixTarget& t, uint64_t to) {
  const PartitionEntry& p = *t.stack.partition;
  const uint32_t sector = t.layout.table->sector_bytes;
  std::vector<FixStep> steps;
  steps.push_back({render_fix({sfdisk_partition(t, to, p.size_bytes, true)}),
                   fmt::format("move partition {} and its data from sector {} to sector {} ({}, aligned), same "
                               "size; nothing on {} may be mounted or in use, and keep a backup: an interrupted "
                               "move leaves the data half moved", p.number, sectors(p.start_bytes, sector),
                               sectors(to, sector), format_size(to), t.disk.prose()),
                   false, true, move_cost(p.size_bytes, t.context)});
  steps.push_back(tell_kernel(t, p.number));
  if (auto check = check_filesystem(t)) steps.push_back(std::move(*check));
  return steps;
}

// No aligned place holds the partition whole: recreate it smaller at the
// aligned start, which loses what is on it.
std::vector<FixStep> recreate_partition(const FixTarget& t, uint64_t align) {
  const PartitionEntry& p = *t.stack.partition;
  const uint32_t sector = t.layout.table->sector_bytes;
  const uint64_t start = align_up(p.start_bytes, align);
  const uint64_t end = align_down(room_around(t.layout, p).high, align);
  const std::string backup = fmt::format("needs a backup and restore of the data on partition {} ({})", p.number,
                                         format_size(p.size_bytes));
  std::vector<FixStep> steps;
  // Nowhere to recreate it aligned: no step would fix it, and a mkfs on the
  // unmoved partition would only lose its data. Said in words, no commands.
  if (end <= start) {
    steps.push_back(by_hand(fmt::format("no aligned place for partition {} between its neighbours: making room means "
                                        "moving or shrinking them first (back up {} before changing the table)",
                                        p.number, t.disk.prose()), backup));
    return steps;
  }
  steps.push_back(by_hand(fmt::format("no aligned start leaves room for partition {} at its size: back up every "
                                      "file on {} to another disk (the next steps erase it)", p.number,
                                      t.node.prose()), backup));
  steps.push_back({render_fix({sfdisk_partition(t, start, end - start, false)}),
                   fmt::format("recreate partition {} at sector {} ({}), {} long", p.number, sectors(start, sector),
                               format_size(start), format_size(end - start)),
                   true, false, backup});
  steps.push_back(tell_kernel(t, p.number));
  if (t.stack.filesystem) {
    steps.push_back({render_fix({{{"mkfs." + t.stack.filesystem->type, t.node}}}), "a new filesystem on it", true,
                     false, backup});
  }
  steps.push_back(by_hand("restore the files from the backup", backup));
  return steps;
}

}  // namespace

std::vector<FixStep> partition_start_fix(const FixTarget& t) {
  if (!t.stack.partition || !t.layout.table) return {};
  const uint64_t align = wanted_alignment(t.units);
  // MBR logical partitions hang off a chain of boot records sfdisk would
  // have to move as well: only the recreate path is sure.
  const bool logical = t.layout.table->scheme == "dos" && t.stack.partition->number > 4;
  const auto to = logical ? std::nullopt : aligned_start_with_room(t.layout, *t.stack.partition, align);
  return to ? move_partition(t, *to) : recreate_partition(t, align);
}

std::vector<FixStep> kernel_start_fix(const FixTarget& t, int number) { return {tell_kernel(t, number)}; }

}  // namespace ssdprobe
