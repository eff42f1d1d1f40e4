// Filesystem settings: ext4's stride and stripe width change in place
// (tune2fs -E); xfs's sunit and swidth change at a mount with those options,
// which writes them to the superblock for good; block, sector, node and
// section sizes only by making the filesystem again.
#include <fmt/format.h>

#include "core/units.h"
#include "layout/audit_fix_steps.h"

namespace ssdprobe {
namespace {

// The node the filesystem is read through: the partition or disk, the md
// array, or the logical volume. A name from the disk that the tools would
// refuse is a placeholder, and `why_not` says so.
FixWord filesystem_node(const FixTarget& t, std::string& why_not) {
  const std::string& container = t.stack.filesystem_container;
  if (container.starts_with("lvm:") && t.stack.lvm) {
    const std::string& vg = t.stack.lvm->vg_name;
    const std::string lv = container.substr(4);
    if (lvm_accepts_name(vg) && lvm_accepts_name(lv)) return fmt::format("/dev/{}/{}", vg, lv);
    why_not = fmt::format("the volume group or logical volume name on the disk (\"{}\", \"{}\") is not one LVM "
                          "accepts, so it is not pasted: /dev/VG/LV stands for the logical volume", vg, lv);
    return "/dev/VG/LV";
  }
  if (container == "md" && t.stack.md) return md_node_for_command(*t.stack.md, why_not);
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
  std::string why_not;
  const FixWord node = filesystem_node(t, why_not);
  return {in_place({{"tune2fs", "-E", fmt::format("stride={},stripe_width={}", stride, width), node}},
                   with_note(purpose, why_not))};
}

// xfs keeps sunit/swidth from a mount that gives them (in 512 B units);
// sunit=0 is ignored (Linux 6.18, tested), so "no stripe" is one block,
// which aligns nothing. One step, so that the first step is the one that
// does the work: the mount is on a directory of its own (mktemp -d), never
// on a path that may not exist or may be someone else's.
std::vector<FixStep> xfs_stripe_fix(const FixTarget& t) {
  const uint64_t block = t.stack.filesystem->block_bytes;
  const auto stripe = stripe_below(t.stack);
  const uint64_t sunit = (stripe ? stripe->unit : block) / 512;
  const uint64_t swidth = (stripe ? stripe->width : block) / 512;
  std::string why_not;
  const FixWord node = filesystem_node(t, why_not);
  const std::string mkfs = stripe ? fmt::format("su={},sw={}", size_argument(stripe->unit),
                                                stripe->width / std::max<uint64_t>(stripe->unit, 1))
                                  : "no stripe (sunit=0, swidth=0)";
  const std::string options = fmt::format("sunit={},swidth={}", sunit, swidth);
  FixCommand make_dir{{"mktemp", "-d"}};
  make_dir.assigns = "dir";
  const FixWord dir = FixWord::variable("dir");
  const std::string purpose = fmt::format(
      "mount it once with {} on a directory of its own (mktemp -d), which writes {} to the superblock for every "
      "later mount ({}), then unmount it and remove the directory; {} must not be mounted elsewhere. Or keep it in "
      "/etc/fstab: '{} MOUNTPOINT xfs defaults,{} 0 0'. mkfs.xfs would set {} here, but erases the data",
      options, stripe ? "the stripe below" : "a stripe of one block (sunit=0 is ignored)",
      stripe ? stripe->source : "aligning to one block aligns nothing", node.prose(), node.prose(), options, mkfs);
  return {{render_fix({make_dir, {{"mount", "-o", options, node, dir}}, {{"umount", dir}}, {{"rmdir", dir}}}),
           with_note(purpose, why_not), false, false, "in place, no data moved"}};
}

FixCommand mkfs_command(const FixTarget& t, const std::string& what, const FixWord& node) {
  const FilesystemInfo& fs = *t.stack.filesystem;
  const uint64_t block = std::max<uint64_t>(4096, t.units.physical_block);
  if (what == "block_size") {
    if (fs.type == "xfs") return {{"mkfs.xfs", "-f", "-b", fmt::format("size={}", block), node}};
    return {{"mkfs." + fs.type, "-F", "-b", std::to_string(block), node}};
  }
  if (what == "sector_size") {
    return {{"mkfs." + fs.type, "-f", "-s", fmt::format("size={}", t.units.logical_block), node}};
  }
  if (what == "node_size" && fs.node_bytes) {
    return {{"mkfs.btrfs", "-f", "--nodesize", std::to_string(covering(*fs.node_bytes, t.units)), node}};
  }
  if (what == "section_size" && fs.segment_bytes && t.units.erase_block && *fs.segment_bytes) {
    const auto section = checked_lcm(*fs.segment_bytes, *t.units.erase_block);
    if (section) return {{"mkfs.f2fs", "-f", "-s", std::to_string(*section / *fs.segment_bytes), node}};
  }
  return FixCommand{{}};
}

}  // namespace

std::vector<FixStep> recreate_filesystem(const FixTarget& t, const FixCommand& mkfs, const std::string& why) {
  const std::string cost = fmt::format("needs a backup and restore of the data on {} (up to {})", t.node.prose(),
                                       format_size(t.stack.size_bytes));
  return {by_hand(fmt::format("{}: back up every file on it to another disk (the next step erases it)", why), cost),
          {render_fix({mkfs}), "make the filesystem again with the setting the drive wants", true, false, cost},
          by_hand("restore the files from the backup", cost)};
}

std::vector<FixStep> filesystem_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  const std::string& type = t.stack.filesystem->type;
  const bool is_ext = type == "ext2" || type == "ext3" || type == "ext4";
  if (is_ext && (what == "stride" || what == "stripe_width")) return ext_stripe_fix(t);
  if (type == "xfs" && (what == "sunit" || what == "swidth")) return xfs_stripe_fix(t);
  std::string why_not;
  const FixCommand mkfs = mkfs_command(t, what, filesystem_node(t, why_not));
  if (mkfs.words.empty()) return {};
  // "partition[1].ext4.block_size" -> "block_size": the setting, once.
  const std::string setting = line.field.substr(line.field.rfind('.') + 1);
  return recreate_filesystem(t, mkfs, with_note(fmt::format("the {} {} cannot change in place", type, setting),
                                                why_not));
}

}  // namespace ssdprobe
