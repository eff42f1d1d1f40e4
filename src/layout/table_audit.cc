#include "layout/table_audit.h"

#include <fmt/format.h>

#include <limits>
#include <unordered_map>

#include "layout/partition_overlaps.h"

namespace ssdprobe {
namespace {

// Linux makes at most this many partitions of one disk (DISK_MAX_PARTS).
constexpr int kKernelMaxPartitions = 256;

// "a", "a and b", "a, b, c and 12 more `what`".
std::string list_text(const std::vector<std::string>& items, size_t more, const std::string& what) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() && more == 0 ? " and " : ", ";
    text += items[i];
  }
  if (more > 0) text += fmt::format(" and {} more {}", more, what);
  return text;
}

class TableAuditor {
 public:
  explicit TableAuditor(const DiskLayout& layout) : layout_(layout), table_(*layout.table) {
    for (const auto& stack : layout.stacks) {
      if (stack.partition && !stack.node.empty()) nodes_.emplace(stack.partition->number, stack.node);
    }
  }

  TableFindings run() {
    overlaps();
    for (const auto& p : table_.partitions) range(p);
    for (const auto& entry : table_.impossible) impossible(entry);
    if (table_.past_cap) past_cap();
    return std::move(out_);
  }

 private:
  std::string sectors(uint64_t start, uint64_t end) const {
    const uint64_t sector = table_.sector_bytes;
    return fmt::format("sectors {}-{}", start / sector, (end - 1) / sector);
  }
  std::string sectors(const PartitionEntry& p) const { return sectors(p.start_bytes, partition_end(p)); }

  std::string layer(int number) const {
    const auto node = nodes_.find(number);
    return node == nodes_.end() ? fmt::format("partition {}", number)
                                : fmt::format("partition {} ({})", number, node->second);
  }

  AuditLine finding(int number, const std::string& what, uint64_t value, std::string message) const {
    AuditLine line;
    line.field = fmt::format("partition[{}].{}", number, what);
    line.layer = layer(number);
    line.value_bytes = value;
    line.ok = false;
    line.severity = Severity::error;
    line.message = std::move(message);
    return line;
  }

  void withhold(int number, const std::string& why) {
    std::string& text = out_.withheld[number];
    text += (text.empty() ? "" : "; ") + why;
  }

  void overlaps() {
    for (const auto& overlap : find_overlaps(table_)) {
      const PartitionEntry& p = table_.partitions[overlap.index];
      std::vector<std::string> others, numbers;
      for (const size_t other : overlap.others) {
        const PartitionEntry& o = table_.partitions[other];
        others.push_back(fmt::format("partition {} ({})", o.number, sectors(o)));
        numbers.push_back(fmt::format("partition {}", o.number));
      }
      const size_t more = overlap.count - overlap.others.size();
      out_.of_partition[p.number].push_back(
          finding(p.number, "overlap", p.start_bytes,
                  fmt::format("{} overlap {}: what is written to one partition is written over the other",
                              sectors(p), list_text(others, more, "partitions"))));
      withhold(p.number, fmt::format("partition {} shares sectors with {}: which of them holds the data that "
                                     "matters is for a person to decide (look at each read-only first), and the "
                                     "table is then corrected by hand after a backup; no command is offered, as "
                                     "moving, recreating or resizing any of them writes over the others",
                                     p.number, list_text(numbers, more, "partitions")));
    }
  }

  void range(const PartitionEntry& p) {
    const uint64_t disk = layout_.disk_size_bytes, sector = table_.sector_bytes;
    if (partition_end(p) > disk) {
      const std::string last = disk >= sector ? fmt::format("{}", disk / sector - 1) : "none";
      out_.of_partition[p.number].push_back(finding(
          p.number, "range", p.start_bytes,
          fmt::format("{} {} past the end of the disk (its last sector is {}): the table claims space the disk does "
                      "not have", sectors(p), p.start_bytes >= disk ? "lie" : "run", last)));
      withhold(p.number, fmt::format("partition {} runs past the end of the disk: whether the table or the disk is "
                                     "wrong (a table copied from a larger disk, an image cut short) is for a person "
                                     "to decide before anything is written; no command is offered", p.number));
      return;
    }
    const uint64_t usable_start = table_.usable_start_bytes.value_or(sector);  // DOS: past the MBR
    const uint64_t usable_end = table_.usable_end_bytes.value_or(disk);
    if (p.start_bytes >= usable_start && partition_end(p) <= usable_end) return;
    out_.of_partition[p.number].push_back(finding(
        p.number, "range", p.start_bytes,
        fmt::format("{} lie outside the sectors the {} table leaves to partitions ({}): they cover the table's own "
                    "sectors, so writing to the partition overwrites the table",
                    sectors(p), table_.scheme, sectors(usable_start, usable_end))));
    withhold(p.number, fmt::format("partition {} lies over the partition table's own sectors: which entry is wrong "
                                   "is for a person to decide; no command is offered, as writing to the partition "
                                   "overwrites the table", p.number));
  }

  void impossible(const ImpossibleEntry& e) {
    const std::string what = e.last_sector < e.first_sector
                                 ? "its last sector comes before its first"
                                 : "that is past any byte offset a disk can have";
    AuditLine line = finding(e.number, "range", 0,
                             fmt::format("the table's entry {} names sectors {}-{}: {}, so it names no place on "
                                         "the disk (libblkid leaves it out of its list; a kernel may still make a "
                                         "partition of it)", e.number, e.first_sector, e.last_sector, what));
    line.fix_withheld = fmt::format("entry {} names no place: what it was meant to say is for a person to decide; "
                                    "no command is offered", e.number);
    out_.of_table.push_back(std::move(line));
  }

  void past_cap() {
    const size_t read = table_.partitions.size();
    AuditLine line;
    line.field = "partition_table.entries";
    line.layer = fmt::format("{} partition table", table_.scheme);
    line.value_bytes = read;
    line.ok = false;
    line.severity = Severity::error;
    const std::string how = table_.scheme == "dos"
                                ? fmt::format("goes on past {} partitions or {} extended boot records",
                                              kMaxTablePartitions, kMaxTablePartitions)
                                : fmt::format("lists more than {} partitions", kMaxTablePartitions);
    line.message = fmt::format("the table {}: only the first {} partitions were read and audited. No real table is "
                               "that long (Linux makes at most {} partitions of a disk)", how, read,
                               kKernelMaxPartitions);
    out_.withheld_for_all = fmt::format("the partition table goes on past the {} partitions that were read: what "
                                        "lies past them, and so whether any partition can be moved or recreated, "
                                        "is for a person to decide after looking at the whole table (sfdisk --dump "
                                        "shows it); no command is offered", read);
    line.fix_withheld = out_.withheld_for_all;
    out_.of_table.push_back(std::move(line));
  }

  const DiskLayout& layout_;
  const PartitionTable& table_;
  std::unordered_map<int, std::string> nodes_;
  TableFindings out_;
};

// What was audited in place of an unreadable table's partitions: none, or
// the kernel's (still there from before the table broke, or read by a
// kernel partition reader ssdprobe does not have), as the kernel has them.
std::string what_was_audited(const DiskLayout& layout) {
  const size_t kernel = layout.kernel_partitions.size();
  if (kernel == 0) return "the kernel sees no partitions and none were audited";
  return fmt::format("only the kernel's {} partition{} were audited, as the kernel has them, not as the table on "
                     "the disk says", kernel, kernel == 1 ? "" : "s");
}

// The finding for a table libblkid named but that was not read. A GPT
// without a readable header (a protective MBR alone: damaged, or written for
// another sector size) or a DOS table libblkid could not read is an error;
// a scheme ssdprobe does not read is a warning.
AuditLine unread_table_finding(const DiskLayout& layout) {
  const UnreadTable& unread = *layout.unread_table;
  const bool gpt = unread.type == "PMBR" || unread.type == "gpt";
  AuditLine line;
  line.field = "partition_table.unread";
  line.layer = gpt                   ? std::string("GPT")
               : unread.type == "dos" ? std::string("DOS partition table")
                                      : fmt::format("'{}' partition table", unread.type);
  line.ok = false;
  line.severity = Severity::error;
  const uint32_t sector = layout.logical_block;
  if (!gpt && unread.type != "dos") {
    line.severity = Severity::warning;
    line.message = fmt::format("a '{}' partition table is there; only gpt and dos tables are read: {}", unread.type,
                               what_was_audited(layout));
    line.fix_withheld = "list the partitions with parted -l and check their starts against the units above by "
                        "hand; no command is offered";
  } else if (!gpt) {
    line.message = fmt::format("a DOS partition table is there but could not be read with {}-byte sectors: {}",
                               sector, what_was_audited(layout));
    line.fix_withheld = "look at the table with fdisk -l before anything is written; what the partitions were is "
                        "for a person to decide, so no command is offered";
  } else if (unread.gpt_sector_bytes) {
    line.message = fmt::format("a protective MBR is there and a GPT header sits where {}-byte sectors put it, but "
                               "this disk is read in {}-byte sectors: the table was written for another sector "
                               "size; {}", *unread.gpt_sector_bytes, sector, what_was_audited(layout));
    line.fix_withheld = fmt::format("read the disk in the {}-byte sectors it was partitioned with (an image: "
                                    "losetup -b {}; a disk: the enclosure or controller that wrote the table) and "
                                    "audit it there; rewriting the table is not offered",
                                    *unread.gpt_sector_bytes, *unread.gpt_sector_bytes);
  } else {
    line.message = fmt::format("a protective MBR is there but no valid GPT header with {}-byte sectors (the primary "
                               "and backup headers are both damaged or missing): {}", sector,
                               what_was_audited(layout));
    line.fix_withheld = "the table is unreadable: look at it with gdisk -l (it can rebuild a GPT from a surviving "
                        "copy) before anything is written; what the partitions were is for a person to decide, so "
                        "no command is offered";
  }
  return line;
}

}  // namespace

std::string TableFindings::withheld_for(int number) const {
  const auto it = withheld.find(number);
  if (it == withheld.end()) return withheld_for_all;
  return withheld_for_all.empty() ? it->second : it->second + "; " + withheld_for_all;
}

TableFindings table_findings(const DiskLayout& layout) {
  if (layout.table) return TableAuditor(layout).run();
  TableFindings findings;
  if (layout.unread_table) {
    findings.of_table.push_back(unread_table_finding(layout));
    findings.withheld_for_all = findings.of_table.back().fix_withheld;
  }
  return findings;
}

}  // namespace ssdprobe
