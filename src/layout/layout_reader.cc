#include "layout/layout_reader.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/units.h"
#include "layout/blkid_probe.h"
#include "layout/fs_superblock.h"
#include "layout/kernel_partitions.h"
#include "layout/lvm_label.h"
#include "layout/md_superblock.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kMdSuperblockBytes = 4096;
constexpr uint64_t kLvmLabelBytes = 2048;            // the label is in one of the first 4 sectors
constexpr uint64_t kLvmMetadataReadLimit = 4 << 20;  // enough for any VG's text; bounds a crafted mda size
// md inside LVM inside md... real stacks have at most partition -> md -> LVM -> fs.
constexpr int kMaxStackDepth = 4;

// Up to `length` bytes at `offset`, fewer at the end of the source; empty on
// a read error (the caller notes what it could not read).
std::vector<uint8_t> read_bytes(const LayoutSource& source, uint64_t offset, uint64_t length) {
  if (offset >= source.size_bytes) return {};
  length = std::min(length, source.size_bytes - offset);
  std::vector<uint8_t> bytes(length);
  size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(source.fd, bytes.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

class StackReader {
 public:
  StackReader(const LayoutSource& source, LayoutStack& stack) : source_(source), stack_(stack) {}

  // Identifies what starts at `offset` and follows it inward.
  void follow(uint64_t offset, uint64_t size, const std::string& container, int depth) {
    if (depth > kMaxStackDepth || size == 0) return;
    // A table in here is only named: libblkid reads little of it (blkid_probe.h).
    ContentProbe content = probe_content(source_.fd, offset, size, source_.logical_block, kInnerTableLimits);
    for (auto& note : content.notes) stack_.notes.push_back(note);
    if (content.type == "linux_raid_member" && !stack_.md) {
      // The stack composes offsets as partition -> md -> LVM -> filesystem
      // (an md array below the PV; audit.cc adds the md data offset before
      // the PV's): an array built on a logical volume is named, not followed.
      if (stack_.lvm) {
        stack_.notes.push_back(fmt::format("an md RAID member inside {} at {} B is not followed: only md arrays "
                                           "below LVM are read", container, offset));
        return;
      }
      return follow_md(offset, size, depth);
    }
    if (content.type == "LVM2_member" && !stack_.lvm) return follow_lvm(offset, size, depth);
    if (content.table && depth > 0) {
      stack_.notes.push_back(fmt::format("a {} partition table inside {} at {} is not followed", content.table->scheme,
                                         container, offset));
      return;
    }
    if (!content.type.empty() && !stack_.filesystem) {
      const auto head = read_bytes(source_, offset, kFilesystemHeadBytes);
      stack_.filesystem = decode_filesystem(content.type, head);
      stack_.filesystem_disk_offset = offset;
      stack_.filesystem_container = container;
    }
  }

 private:
  void follow_md(uint64_t offset, uint64_t size, int depth) {
    for (const auto& [minor, location] : md_superblock_locations(size)) {
      const auto bytes = read_bytes(source_, offset + location, kMdSuperblockBytes);
      auto sb = decode_md_superblock(bytes, minor, location, size);
      if (!sb) continue;
      stack_.md = *sb;
      if (!holds_first_chunk(*sb)) {
        stack_.notes.push_back(fmt::format(
            "md member role {} of a raid{} array: the array's first chunk (where its contents start) is on "
            "another member, so what the array holds is not read from this disk", sb->role, sb->level));
        return;
      }
      if (sb->data_offset_bytes >= size) return;
      const uint64_t inner = std::min(sb->data_size_bytes ? sb->data_size_bytes : size - sb->data_offset_bytes,
                                      size - sb->data_offset_bytes);
      return follow(offset + sb->data_offset_bytes, inner, "md", depth + 1);
    }
    stack_.notes.push_back("libblkid sees an md RAID member, but no valid v1.x superblock was found "
                           "(0.90 and 1.x with a bad checksum are not decoded)");
  }

  // The array's byte 0 lies on this member for mirrors and on role 0 for the
  // striped levels (mdadm's default layouts put chunk 0 on the first member).
  static bool holds_first_chunk(const MdSuperblock& sb) {
    if (sb.level == 1) return true;
    return sb.role == 0;
  }

  void follow_lvm(uint64_t offset, uint64_t size, int depth) {
    const auto head = read_bytes(source_, offset, kLvmLabelBytes);
    auto label = decode_lvm_label(head);
    if (!label) {
      stack_.notes.push_back("libblkid sees an LVM physical volume, but its label does not decode");
      return;
    }
    LvmPhysicalVolume pv = label->pv;
    bool have_metadata = false;
    for (const auto& [area_offset, area_size] : label->metadata_areas) {
      const auto area = read_bytes(source_, offset + area_offset, std::min(area_size, kLvmMetadataReadLimit));
      const auto text = lvm_metadata_text(area);
      if (!text) continue;
      for (auto& note : apply_lvm_metadata(*text, pv)) stack_.notes.push_back("LVM metadata: " + note);
      have_metadata = true;
      break;
    }
    if (!have_metadata) stack_.notes.push_back("no readable LVM metadata area: extent size and volumes unknown");
    stack_.lvm = pv;
    follow_first_volume(offset, size, depth);
  }

  // The filesystem of the first logical volume that begins on this PV (its
  // extent 0 is here, and it is not striped: a striped LV's byte 0 is here
  // but its first stripe is only stripe_bytes long).
  void follow_first_volume(uint64_t offset, uint64_t size, int depth) {
    const LvmPhysicalVolume& pv = *stack_.lvm;
    if (!pv.extent_bytes || *pv.extent_bytes == 0) return;
    for (const auto& segment : pv.segments) {
      if (segment.lv_start_extent != 0) continue;
      const uint64_t extent = *pv.extent_bytes;
      if (segment.pv_start_extent > (size - std::min(size, pv.pe_start_bytes)) / extent) return;
      const uint64_t start = pv.pe_start_bytes + segment.pv_start_extent * extent;
      if (start >= size) return;
      uint64_t length = std::min(segment.extent_count, (size - start) / extent) * extent;
      if (segment.stripes > 1 && segment.stripe_bytes > 0) length = std::min(length, segment.stripe_bytes);
      return follow(offset + start, length, "lvm:" + segment.lv_name, depth + 1);
    }
  }

  const LayoutSource& source_;
  LayoutStack& stack_;
};

bool same_place(const PartitionEntry& table, const KernelPartition& kernel) {
  return table.start_bytes == kernel.start_bytes && table.size_bytes == kernel.size_bytes;
}

}  // namespace

LayoutStack read_stack(const LayoutSource& source, uint64_t offset, uint64_t size) {
  LayoutStack stack;
  stack.start_disk_offset = offset;
  stack.size_bytes = size;
  StackReader(source, stack).follow(offset, size, offset == 0 ? "disk" : "partition", 0);
  return stack;
}

DiskLayout read_disk_layout(const LayoutSource& source) {
  DiskLayout layout;
  layout.disk_path = source.path;
  layout.image_file = source.regular_file;
  layout.disk_size_bytes = source.size_bytes;
  layout.logical_block = source.logical_block;
  ContentProbe content = probe_content(source.fd, 0, source.size_bytes, source.logical_block);
  layout.notes = content.notes;
  layout.table = content.table;
  layout.unread_table = content.unread_table;
  if (!source.disk_name.empty()) layout.kernel_partitions = read_kernel_partitions(source.disk_name, source.sysfs_root);

  // One stack per partition the table or the kernel knows; the kernel's node
  // is attached where both agree on the place.
  std::vector<bool> kernel_matched(layout.kernel_partitions.size(), false);
  if (layout.table) {
    for (const auto& entry : layout.table->partitions) {
      if (entry.container) continue;
      // A table may claim more than the disk holds (a copied image, a
      // crafted table): read only what is there, and say so.
      const uint64_t available = entry.start_bytes < source.size_bytes ? source.size_bytes - entry.start_bytes : 0;
      LayoutStack stack = read_stack(source, entry.start_bytes, std::min(entry.size_bytes, available));
      if (entry.size_bytes > available) {
        stack.notes.push_back(fmt::format("partition {} runs past the end of the disk ({} B): only what the disk "
                                          "holds was read", entry.number, source.size_bytes));
      }
      stack.partition = entry;
      stack.size_bytes = entry.size_bytes;
      for (size_t i = 0; i < layout.kernel_partitions.size(); ++i) {
        if (!kernel_matched[i] && same_place(entry, layout.kernel_partitions[i])) {
          kernel_matched[i] = true;
          stack.node = "/dev/" + layout.kernel_partitions[i].name;
        }
      }
      layout.stacks.push_back(std::move(stack));
    }
  }
  for (size_t i = 0; i < layout.kernel_partitions.size(); ++i) {
    if (kernel_matched[i]) continue;
    const KernelPartition& kp = layout.kernel_partitions[i];
    if (kp.start_bytes >= source.size_bytes) continue;
    LayoutStack stack = read_stack(source, kp.start_bytes, std::min(kp.size_bytes, source.size_bytes - kp.start_bytes));
    stack.partition = PartitionEntry{kp.number, kp.start_bytes, kp.size_bytes, "", "", false};
    stack.node = "/dev/" + kp.name;
    stack.notes.push_back(layout.table          ? "the kernel has this partition, the partition table does not"
                          : layout.unread_table ? "the kernel has this partition; the disk's partition table could "
                                                  "not be read"
                                                : "the kernel has this partition; the disk has no partition table");
    layout.stacks.push_back(std::move(stack));
  }
  if (layout.stacks.empty() && !layout.table) {
    LayoutStack whole = read_stack(source, 0, source.size_bytes);
    // Its first probe is the disk's probe again: what that said (a PMBR
    // whose GPT cannot be read, say) is a disk note already, not said twice.
    std::erase_if(whole.notes, [&](const std::string& note) {
      return std::find(layout.notes.begin(), layout.notes.end(), note) != layout.notes.end();
    });
    layout.stacks.push_back(std::move(whole));
  }
  return layout;
}

}  // namespace ssdprobe
