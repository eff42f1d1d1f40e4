// md and LVM: what a reshape can change in place (md chunk and data offset,
// LVM extent size), and what only moving the data to a correctly aligned
// device does (an LVM data area start: pvmove). No md or device-mapper on
// the machines these were written on: the strings are unit-tested, the
// commands follow mdadm(8), pvmove(8), vgchange(8). Array, volume group and
// logical volume names come from the disk: one the tools would refuse is
// never pasted (layout/volume_names.h).
#include <fmt/format.h>

#include "core/block_math.h"
#include "core/shell_command.h"
#include "core/units.h"
#include "layout/audit_fix_steps.h"

namespace ssdprobe {
namespace {

uint64_t array_bytes(const MdSuperblock& md) { return md.data_size_bytes * static_cast<uint64_t>(md.data_disks()); }

std::string kib(uint64_t bytes) { return fmt::format("{}K", bytes / 1024); }

std::vector<FixStep> md_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  const MdSuperblock& md = *t.stack.md;
  std::string refused;
  const std::string node = md_node_for_command(md, refused);
  const std::string rewrite = move_cost(array_bytes(md), t.context);
  if (what == "md.chunk") {
    const uint64_t chunk = covering(md.chunk_bytes, t.units);
    const std::string backup_name = refused.empty() ? md_short_name(md) : "mdN";
    std::string purpose = fmt::format(
        "reshape the array to a {} chunk, rewriting every stripe (RAID 0, 4, 5, 6; RAID 10 cannot change its chunk: "
        "back up, mdadm --create with --chunk={}, restore). The backup file must be on a disk outside the array; "
        "then set the filesystem's stripe settings to match", format_size(chunk), kib(chunk));
    purpose = with_note(purpose, refused);
    return {{render_command({{"mdadm", "--grow", node, "--chunk=" + kib(chunk),
                              "--backup-file=/root/md-" + backup_name + "-chunk.backup"}}),
             purpose, false, true, rewrite}};
  }
  // md.data_offset: the member's data area start, relative to the member.
  const uint64_t to = line.suggested_bytes.value_or(0) - std::min(t.stack.start_disk_offset,
                                                                  line.suggested_bytes.value_or(0));
  std::string purpose = fmt::format(
      "reshape moving the data of every member to {} from the member's start (Linux 3.4 and later; RAID 10, and "
      "RAID 4/5/6 with recent mdadm; needs that much free space at the member's start or end). Where mdadm refuses, "
      "only a rebuild does it: back up, mdadm --create with --data-offset={}, restore", format_size(to), kib(to));
  purpose = with_note(purpose, refused);
  return {{render_command({{"mdadm", "--grow", node, "--data-offset=" + kib(to)}}), purpose, false, true, rewrite}};
}

uint64_t allocated_bytes(const LvmPhysicalVolume& pv, const std::string& only_lv = "") {
  uint64_t extents = 0;
  for (const auto& s : pv.segments) extents += only_lv.empty() || s.lv_name == only_lv ? s.extent_count : 0;
  return extents * pv.extent_bytes.value_or(0);
}

// The logical volume a field "lvm.lv[NAME].start" names: the one of this
// PV's segments whose whole name fits, the longest if several do. Never cut
// at the first ']': a hostile LV named "root]x" would become the real "root".
std::optional<std::string> lv_in_field(const LvmPhysicalVolume& pv, const std::string& what) {
  std::optional<std::string> found;
  for (const auto& segment : pv.segments) {
    const std::string prefix = "lvm.lv[" + segment.lv_name + "]";
    const bool whole = what.starts_with(prefix) && (what.size() == prefix.size() || what[prefix.size()] == '.');
    if (whole && (!found || segment.lv_name.size() > found->size())) found = segment.lv_name;
  }
  return found;
}

// Why a logical volume's name is not pasted ("" when it is).
std::string lv_note(const std::string& lv) {
  if (lvm_accepts_name(lv)) return "";
  return fmt::format("the logical volume's name on the disk, \"{}\", is not one LVM accepts, so it is not pasted: "
                     "LV stands for it", lv);
}

// The volume group's name for a command, or the placeholder with the reason.
std::string vg_for_command(const LvmPhysicalVolume& pv, std::string& refused) {
  if (pv.vg_name.empty()) return kVgPlaceholder;
  if (lvm_accepts_name(pv.vg_name)) return pv.vg_name;
  refused = vg_name_refused(pv.vg_name);
  return kVgPlaceholder;
}

// A new PV made aligned on another device, and the data moved onto it:
// all of it, or the extents of logical volume `lv`. `names_note` says which
// names of the disk stand as placeholders.
std::vector<FixStep> pvmove_path(const FixTarget& t, const FixWord& pv_node, const std::string& lv,
                                 std::string names_note) {
  const LvmPhysicalVolume& pv = *t.stack.lvm;
  const uint64_t align = wanted_alignment(t.units);
  std::string refused;
  const std::string vg = vg_for_command(pv, refused);
  std::string new_pv = fmt::format(
      "NEWDEV: a partition or disk you choose, starting aligned (a multiple of {} from the disk's start), with room "
      "for {}; its data area starts aligned. (The data area of {} cannot move under its data: in place it takes a "
      "backup, pvcreate --dataalignment and vgcfgrestore, and a restore)", format_size(align),
      format_size(allocated_bytes(pv, lv)), pv_node.prose());
  std::string extend = "add it to the volume group";
  extend = with_note(extend, refused);
  std::string moving = "move the extents, online (LVs may stay in use)";
  moving = with_note(moving, names_note);
  FixCommand move{{"pvmove"}};
  if (!lv.empty()) move.words.insert(move.words.end(), {"-n", lvm_accepts_name(lv) ? lv : "LV"});
  move.words.insert(move.words.end(), {pv_node, "NEWDEV"});
  std::vector<FixStep> steps = {
      {render_command({{"pvcreate", "--dataalignment", kib(align), "NEWDEV"}}), new_pv, true, false,
       "erases NEWDEV: whatever it held is lost (the PV's own data moves with pvmove below)"},
      in_place({{"vgextend", vg, "NEWDEV"}}, extend),
      {render_fix({move}), moving, false, true,
       move_cost(allocated_bytes(pv, lv), t.context)},
  };
  if (lv.empty()) {
    steps.push_back(in_place({{"vgreduce", vg, pv_node}}, "take the old PV out of the group"));
    steps.push_back(in_place({{"pvremove", pv_node}}, "it can now be made again, aligned"));
  }
  return steps;
}

// A PV on which nothing is allocated has no data to move: it is made again
// in place, its data area aligned on the disk (--dataalignmentoffset shifts
// it by what the PV's own start misses), and put back in its volume group:
// the group made again when this PV is its only one (vgreduce refuses to
// take out a group's last PV), else taken out and added back.
std::vector<FixStep> recreate_empty_pv(const FixTarget& t, const FixWord& pv_node, const std::string& names_note) {
  const LvmPhysicalVolume& pv = *t.stack.lvm;
  const uint64_t align = wanted_alignment(t.units);
  const uint64_t pv_start = t.stack.start_disk_offset + (t.stack.md ? t.stack.md->data_offset_bytes : 0);
  const uint64_t shift = (align - pv_start % align) % align;
  std::string refused;
  const std::string vg = vg_for_command(pv, refused);
  const bool only_pv = pv.vg_pv_count <= 1;
  FixCommand create{{"pvcreate", "--dataalignment", kib(align)}};
  if (shift != 0) create.words.insert(create.words.end(), {"--dataalignmentoffset", fmt::format("{}s", shift / 512)});
  create.words.emplace_back(pv_node);
  const std::string none = "no data: nothing is allocated on this PV";
  std::vector<FixStep> steps;
  if (only_pv) {
    steps.push_back(in_place({{"vgremove", vg}}, with_note(fmt::format(
        "no logical volume has an extent on {}, the group's only PV, so there is no data to move: remove the "
        "empty volume group (it is made again below)", pv_node.prose()), refused)));
  } else {
    steps.push_back(in_place({{"vgreduce", vg, pv_node}}, with_note(fmt::format(
        "no logical volume has an extent on {}, so there is no data to move: take it out of the group",
        pv_node.prose()), refused)));
  }
  steps.push_back(in_place({{"pvremove", pv_node}}, with_note("remove its PV label", names_note)));
  steps.push_back(in_place(create, fmt::format("make the PV again with its data area starting aligned ({} from the "
                                                "disk's start is a multiple of {})",
                                                shift != 0 ? "the PV's start plus the offset" : "its start",
                                                format_size(align))));
  if (only_pv) {
    steps.push_back(in_place({{"vgcreate", "--physicalextentsize", kib(*pv.extent_bytes), vg, pv_node}},
                             "the volume group again, with the same name and extent size (a new UUID; tags and "
                             "settings of the old group are not kept)"));
  } else {
    steps.push_back(in_place({{"vgextend", vg, pv_node}}, "put it back in the group"));
  }
  for (auto& step : steps) step.cost = none;
  return steps;
}

std::vector<FixStep> lvm_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  const LvmPhysicalVolume& pv = *t.stack.lvm;
  std::string md_refused;
  const FixWord pv_node = t.stack.md ? FixWord(md_node_for_command(*t.stack.md, md_refused)) : t.node;
  std::string refused;
  const std::string vg = vg_for_command(pv, refused);
  if (what == "lvm.extent_size" && pv.extent_bytes) {
    const auto extent = checked_lcm(*pv.extent_bytes, wanted_alignment(t.units));
    if (!extent) return {};
    std::string purpose = "extents that are whole multiples of the alignment (refused if an LV's size is not a "
                          "multiple of the new size); LVs allocated later start aligned, those there now stay where "
                          "they are";
    purpose = with_note(purpose, refused);
    return {in_place({{"vgchange", "--physicalextentsize", kib(*extent), vg}}, purpose)};
  }
  if (what.starts_with("lvm.lv[")) {
    const auto named = lv_in_field(pv, what);
    if (!named) return {};
    const std::string& lv = *named;
    if (what.ends_with(".stripe_size")) {
      const uint64_t stripe = covering(line.value_bytes, t.units);
      const bool lv_ok = lvm_accepts_name(lv);
      std::string purpose = "reshape the stripe (raid LV types only; a plain striped LV takes a backup, lvcreate -I "
                            "and a restore)";
      purpose = with_note(purpose, refused);
      purpose = with_note(purpose, lv_note(lv));
      return {{render_command({{"lvconvert", "--stripesize", kib(stripe), vg + "/" + (lv_ok ? lv : "LV")}}), purpose,
               false, true, move_cost(allocated_bytes(pv, lv), t.context)}};
    }
    const std::string lv_refused = lv_note(lv);
    return pvmove_path(t, pv_node, lv, md_refused.empty() || lv_refused.empty() ? md_refused + lv_refused
                                                                               : md_refused + "; " + lv_refused);
  }
  if (pv.extent_bytes && allocated_bytes(pv) == 0) return recreate_empty_pv(t, pv_node, md_refused);
  return pvmove_path(t, pv_node, "", md_refused);
}

}  // namespace

std::string md_node_for_command(const MdSuperblock& md, std::string& why_not) {
  if (auto node = md_node(md)) return *node;
  why_not = md_name_refused(md);
  return kMdPlaceholder;
}

std::vector<FixStep> volume_fix(const FixTarget& t, const AuditLine& line, const std::string& what) {
  if (what.starts_with("md.") && t.stack.md) return md_fix(t, line, what);
  if (what.starts_with("lvm.") && t.stack.lvm) return lvm_fix(t, line, what);
  return {};
}

}  // namespace ssdprobe
