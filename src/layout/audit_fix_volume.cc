// md and LVM: what a reshape can change in place (md chunk and data offset,
// LVM extent size), and what only moving the data to a correctly aligned
// device does (an LVM data area start: pvmove). No md or device-mapper on
// the machines these were written on: the strings are unit-tested, the
// commands follow mdadm(8), pvmove(8), vgchange(8).
#include <fmt/format.h>

#include "core/block_math.h"
#include "core/units.h"
#include "layout/audit_fix_steps.h"

namespace ssdprobe {
namespace {

uint64_t array_bytes(const MdSuperblock& md) { return md.data_size_bytes * static_cast<uint64_t>(md.data_disks()); }

std::string kib(uint64_t bytes) { return fmt::format("{}K", bytes / 1024); }

std::vector<FixStep> md_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  const MdSuperblock& md = *t.stack.md;
  const std::string node = md_node(md);
  const std::string rewrite = move_cost(array_bytes(md), t.context);
  if (what == "md.chunk") {
    const uint64_t chunk = covering(md.chunk_bytes, t.units);
    return {{fmt::format("mdadm --grow {} --chunk={} --backup-file=/root/md-{}-chunk.backup", node, kib(chunk),
                         node.substr(8)),
             fmt::format("reshape the array to a {} chunk, rewriting every stripe (RAID 0, 4, 5, 6; RAID 10 cannot "
                         "change its chunk: back up, mdadm --create with --chunk={}, restore). The backup file "
                         "must be on a disk outside the array; then set the filesystem's stripe settings to match",
                         format_size(chunk), kib(chunk)),
             false, true, rewrite}};
  }
  // md.data_offset: the member's data area start, relative to the member.
  const uint64_t to = line.suggested_bytes.value_or(0) - std::min(t.stack.start_disk_offset,
                                                                  line.suggested_bytes.value_or(0));
  return {{fmt::format("mdadm --grow {} --data-offset={}", node, kib(to)),
           fmt::format("reshape moving the data of every member to {} from the member's start (Linux 3.4 and "
                       "later; RAID 10, and RAID 4/5/6 with recent mdadm; needs that much free space at the "
                       "member's start or end). Where mdadm refuses, only a rebuild does it: back up, mdadm --create "
                       "with --data-offset={}, restore", format_size(to), kib(to)),
           false, true, rewrite}};
}

uint64_t allocated_bytes(const LvmPhysicalVolume& pv, const std::string& only_lv = "") {
  uint64_t extents = 0;
  for (const auto& s : pv.segments) extents += only_lv.empty() || s.lv_name == only_lv ? s.extent_count : 0;
  return extents * pv.extent_bytes.value_or(0);
}

// A new PV made aligned on another device, and the data moved onto it.
std::vector<FixStep> pvmove_path(const FixTarget& t, const std::string& pv_node, const std::string& lv) {
  const LvmPhysicalVolume& pv = *t.stack.lvm;
  const uint64_t align = wanted_alignment(t.units);
  const std::string vg = pv.vg_name.empty() ? "VG" : pv.vg_name;
  const std::string moved = lv.empty() ? "" : fmt::format("-n {} ", lv);
  std::vector<FixStep> steps = {
      {fmt::format("pvcreate --dataalignment {} NEWDEV", kib(align)),
               fmt::format("NEWDEV: a partition or disk you choose, starting aligned (a multiple of {} from the "
                           "disk's start), with room for {}; its data area starts aligned. (The data area of {} "
                           "cannot move under its data: in place it takes a backup, pvcreate --dataalignment and "
                           "vgcfgrestore, and a restore)", format_size(align), format_size(allocated_bytes(pv, lv)),
                           pv_node),
       true, false, "erases NEWDEV: whatever it held is lost (the PV's own data moves with pvmove below)"},
      in_place(fmt::format("vgextend {} NEWDEV", vg), "add it to the volume group"),
      {fmt::format("pvmove {}{} NEWDEV", moved, pv_node), "move the extents, online (LVs may stay in use)", false,
       true, move_cost(allocated_bytes(pv, lv), t.context)},
  };
  if (lv.empty()) {
    steps.push_back(in_place(fmt::format("vgreduce {} {}", vg, pv_node), "take the old PV out of the group"));
    steps.push_back(in_place(fmt::format("pvremove {}", pv_node), "it can now be made again, aligned"));
  }
  return steps;
}

std::vector<FixStep> lvm_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  const LvmPhysicalVolume& pv = *t.stack.lvm;
  const std::string pv_node = t.stack.md ? md_node(*t.stack.md) : t.node;
  if (what == "lvm.extent_size" && pv.extent_bytes) {
    const auto extent = checked_lcm(*pv.extent_bytes, wanted_alignment(t.units));
    if (!extent) return {};
    return {in_place(fmt::format("vgchange --physicalextentsize {} {}", kib(*extent), pv.vg_name),
                     "extents that are whole multiples of the alignment (refused if an LV's size is not a multiple "
                     "of the new size); LVs allocated later start aligned, those there now stay where they are")};
  }
  if (what.starts_with("lvm.lv[")) {
    const std::string lv = what.substr(7, what.find(']') - 7);
    if (what.ends_with(".stripe_size")) {
      const uint64_t stripe = covering(line.value_bytes, t.units);
      return {{fmt::format("lvconvert --stripesize {} {}/{}", kib(stripe), pv.vg_name, lv),
               "reshape the stripe (raid LV types only; a plain striped LV takes a backup, lvcreate -I and a "
               "restore)", false, true, move_cost(allocated_bytes(pv, lv), t.context)}};
    }
    return pvmove_path(t, pv_node, lv);
  }
  return pvmove_path(t, pv_node, "");
}

}  // namespace

std::vector<FixStep> volume_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  if (what.starts_with("md.") && t.stack.md) return md_fix(t, line, what);
  if (what.starts_with("lvm.") && t.stack.lvm) return lvm_fix(t, line, what);
  return {};
}

}  // namespace ssdprobe
