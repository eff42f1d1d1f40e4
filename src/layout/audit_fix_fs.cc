// Filesystem settings: ext4's stride and stripe width change in place
// (tune2fs -E); xfs's sunit and swidth change at a mount with those options,
// which writes them to the superblock for good; block, sector, node and
// section sizes only by making the filesystem again.
#include <fmt/format.h>

#include "core/units.h"
#include "layout/audit_fix_steps.h"

namespace ssdprobe {
namespace {

constexpr const char* kMountPoint = "/mnt/ssdprobe-fix";

// The node the filesystem is read through: the partition or disk, the md
// array, or the logical volume.
std::string filesystem_node(const FixTarget& t) {
  const std::string& container = t.stack.filesystem_container;
  if (container.starts_with("lvm:") && t.stack.lvm) {
    return fmt::format("/dev/{}/{}", t.stack.lvm->vg_name, container.substr(4));
  }
  if (container == "md" && t.stack.md) return md_node(*t.stack.md);
  return t.node;
}

std::vector<FixStep> ext_stripe_fix(const FixTarget& t) {
  const uint64_t block = t.stack.filesystem->block_bytes;
  const auto stripe = stripe_below(t.stack);
  const uint64_t stride = stripe && block ? stripe->unit / block : 0;
  const uint64_t width = stripe && block ? stripe->width / block : 0;
  const std::string purpose =
      stripe ? fmt::format("set the stride and stripe width (in {} blocks) to {}", format_size(block), stripe->source)
             : "clear the stride and stripe width (0 removes them; the filesystem may stay mounted)";
  return {in_place(fmt::format("tune2fs -E stride={},stripe_width={} {}", stride, width, filesystem_node(t)),
                   purpose)};
}

// xfs keeps sunit/swidth from a mount that gives them (in 512 B units);
// sunit=0 is ignored (Linux 6.18, tested), so "no stripe" is one block,
// which aligns nothing.
std::vector<FixStep> xfs_stripe_fix(const FixTarget& t) {
  const uint64_t block = t.stack.filesystem->block_bytes;
  const auto stripe = stripe_below(t.stack);
  const uint64_t sunit = (stripe ? stripe->unit : block) / 512;
  const uint64_t swidth = (stripe ? stripe->width : block) / 512;
  const std::string node = filesystem_node(t);
  const std::string mkfs = stripe ? fmt::format("su={},sw={}", size_argument(stripe->unit),
                                                stripe->width / std::max<uint64_t>(stripe->unit, 1))
                                  : "no stripe (sunit=0, swidth=0)";
  const std::string options = fmt::format("sunit={},swidth={}", sunit, swidth);
  return {
      in_place(fmt::format("mkdir -p {}", kMountPoint), "a place for one mount; the filesystem must not be mounted"),
      in_place(fmt::format("mount -o {} {} {}", options, node, kMountPoint),
               fmt::format("mounting with {} writes {} to the superblock for every later mount ({}); or keep it "
                           "in /etc/fstab: '{} MOUNTPOINT xfs defaults,{} 0 0'. mkfs.xfs would set {} here, but "
                           "erases the data", options,
                           stripe ? "the stripe below" : "a stripe of one block (sunit=0 is ignored)",
                           stripe ? stripe->source : "aligning to one block aligns nothing", node, options, mkfs)),
      in_place(fmt::format("umount {}", kMountPoint), "the new values are on the disk"),
  };
}

std::string mkfs_command(const FixTarget& t, const std::string& what, const std::string& node) {
  const FilesystemInfo& fs = *t.stack.filesystem;
  const uint64_t block = std::max<uint64_t>(4096, t.units.physical_block);
  if (what == "block_size") {
    return fs.type == "xfs" ? fmt::format("mkfs.xfs -f -b size={} {}", block, node)
                            : fmt::format("mkfs.{} -F -b {} {}", fs.type, block, node);
  }
  if (what == "sector_size") return fmt::format("mkfs.{} -f -s size={} {}", fs.type, t.units.logical_block, node);
  if (what == "node_size" && fs.node_bytes) {
    return fmt::format("mkfs.btrfs -f --nodesize {} {}", covering(*fs.node_bytes, t.units), node);
  }
  if (what == "section_size" && fs.segment_bytes && t.units.erase_block && *fs.segment_bytes) {
    const auto section = checked_lcm(*fs.segment_bytes, *t.units.erase_block);
    if (section) return fmt::format("mkfs.f2fs -f -s {} {}", *section / *fs.segment_bytes, node);
  }
  return "";
}

}  // namespace

std::vector<FixStep> recreate_filesystem(const FixTarget& t, const std::string& mkfs, const std::string& why) {
  const std::string cost = fmt::format("needs a backup and restore of the data on {} (up to {})", t.node,
                                       format_size(t.stack.size_bytes));
  return {by_hand(fmt::format("{}: back up every file on it to another disk (the next step erases it)", why), cost),
          {mkfs, "make the filesystem again with the setting the drive wants", true, false, cost},
          by_hand("restore the files from the backup", cost)};
}

std::vector<FixStep> filesystem_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  const std::string& type = t.stack.filesystem->type;
  const bool is_ext = type == "ext2" || type == "ext3" || type == "ext4";
  if (is_ext && (what == "stride" || what == "stripe_width")) return ext_stripe_fix(t);
  if (type == "xfs" && (what == "sunit" || what == "swidth")) return xfs_stripe_fix(t);
  const std::string mkfs = mkfs_command(t, what, filesystem_node(t));
  if (mkfs.empty()) return {};
  // "partition[1].ext4.block_size" -> "block_size": the setting, once.
  const std::string setting = line.field.substr(line.field.rfind('.') + 1);
  return recreate_filesystem(t, mkfs, fmt::format("the {} {} cannot change in place", type, setting));
}

}  // namespace ssdprobe
