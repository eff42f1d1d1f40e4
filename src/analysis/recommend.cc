#include "analysis/recommend.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <fmt/format.h>
#include <numeric>

#include "analysis/block_size_advice.h"
#include "analysis/block_size_policy.h"
#include "core/block_math.h"
#include "core/shell_command.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
// No unit, chunk, stripe or alignment beyond this is believable; capping every
// least common multiple here also keeps them from overflowing.
constexpr uint64_t kLargestSize = 1ULL << 30;
constexpr unsigned kMostMembers = 128;          // md members or PVs
constexpr uint64_t kLvmDefaultExtent = 4 * kMiB;  // vgcreate's default -s
// mdadm's own default data offset for a 1.2 member of 128 GiB or more is 128
// MiB of reshape headroom plus the superblock and bitmap, rounded up to 1 MiB
// (mdadm super1.c, validate_geometry1). ssdprobe keeps the headroom and
// rounds it up to the partition alignment instead.
constexpr uint64_t kMdHeadroom = 128 * kMiB;
// Chunk (md) and stripe size (LVM): what one member receives contiguously.
// A multiple of the member's write unit makes every chunk boundary a
// write-unit boundary, so striping never splits a write unit between two
// requests. 64 KiB is the floor: below it sequential IO breaks into many small
// per-member requests whose overhead dominates (it is LVM's default stripe
// size). Larger than that buys an SSD nothing, since there is no seek to
// amortize, and for parity RAID a larger chunk makes partial-stripe writes
// (parity read-modify-write) more likely: so the least common multiple of the
// unit and 64 KiB. With no unit known, 512 KiB (mdadm's default chunk): a
// multiple of every power-of-two write unit up to 512 KiB.
constexpr uint64_t kStripeUnitFloor = 64 * kKiB;
constexpr uint64_t kUnknownUnitStripe = 512 * kKiB;

std::optional<uint64_t> capped_lcm(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0 || a > kLargestSize || b > kLargestSize) return std::nullopt;
  const uint64_t result = a / std::gcd(a, b) * b;  // both <= 2^30: no overflow
  if (result > kLargestSize) return std::nullopt;
  return result;
}

// Sizes as lvcreate, pvcreate, vgcreate and mkfs.xfs read them (k and m are
// binary); mdadm wants capital K/M (mdadm util.c parse_size).
std::string size_arg(uint64_t bytes, bool capital = false) {
  if (bytes % kMiB == 0) return fmt::format("{}{}", bytes / kMiB, capital ? 'M' : 'm');
  if (bytes % kKiB == 0) return fmt::format("{}{}", bytes / kKiB, capital ? 'K' : 'k');
  return fmt::format("{}b", bytes);
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : std::string(separator)) + item;
  return out;
}

// What a stripe chunk should be a multiple of: the write unit when known (it
// is what misaligned writes pay for), else the read page.
struct MemberUnit {
  uint64_t bytes;
  const char* name;
};

std::optional<MemberUnit> member_unit(const GeometryForRecommendation& g) {
  if (g.write_unit && *g.write_unit > 0 && *g.write_unit <= kLargestSize) return MemberUnit{*g.write_unit, "write unit"};
  if (g.read_page && *g.read_page > 0 && *g.read_page <= kLargestSize) return MemberUnit{*g.read_page, "read page"};
  return std::nullopt;
}

struct ChosenSize {
  uint64_t bytes;
  std::string why;
};

// See kStripeUnitFloor. lvm2 and md RAID 4/5/6/10 accept only powers of two;
// a unit with an odd factor (48 KiB) then has no multiple they accept.
ChosenSize choose_stripe_unit(const std::optional<MemberUnit>& unit, bool power_of_two_only) {
  if (!unit) return {kUnknownUnitStripe, "no write unit or read page was found: 512 KiB is a multiple of every "
                                         "power-of-two unit up to 512 KiB"};
  const auto multiple = capped_lcm(unit->bytes, kStripeUnitFloor);
  if (multiple && (!power_of_two_only || std::has_single_bit(*multiple))) {
    return {*multiple, fmt::format("the smallest multiple of the {} {} that is at least 64 KiB", format_size(unit->bytes),
                                   unit->name)};
  }
  const uint64_t power = std::bit_ceil(std::max(unit->bytes, kStripeUnitFloor));
  return {power, fmt::format("only a power of two is accepted here and none is a multiple of the {} {}: some chunk "
                             "boundaries fall inside a {}",
                             format_size(unit->bytes), unit->name, unit->name)};
}

struct Stripe {
  uint64_t unit;
  unsigned width;     // data disks or LV stripes
  std::string layer;  // "md RAID 5", "the striped LV"
};

struct MdPlan {
  unsigned level = 0, members = 0, data_disks = 0;
  std::optional<ChosenSize> chunk;  // none for RAID 1
  uint64_t data_offset = 0;
};

struct LvmPlan {
  unsigned physical_volumes = 1, stripes = 1;
  std::optional<ChosenSize> stripe;  // striped LVs only
  uint64_t data_alignment = 0, extent = 0;
};

unsigned minimum_members(unsigned level) { return level == 6 ? 4 : 2; }

unsigned data_disks_of(unsigned level, unsigned members) {
  switch (level) {
    case 0: return members;
    case 4: case 5: return members - 1;
    case 6: return members - 2;
    case 10: return std::max(1U, members / 2);
    default: return 1;  // RAID 1: every member holds the same data
  }
}

bool valid_level(unsigned level) {
  return level == 0 || level == 1 || level == 4 || level == 5 || level == 6 || level == 10;
}

std::optional<ChosenSize> md_chunk(const MdStripe& md, const std::optional<MemberUnit>& unit,
                                   std::vector<std::string>& notes) {
  if (md.level == 1) {
    if (md.chunk_bytes) notes.push_back("RAID 1 mirrors and has no chunk: the chunk given is ignored");
    return std::nullopt;
  }
  const bool power_of_two_only = md.level != 0;  // mdadm(8) --chunk: RAID 4/5/6/10 need a power of two
  if (md.chunk_bytes) {
    const uint64_t c = *md.chunk_bytes;
    if (c > 0 && c % 4096 == 0 && c <= kLargestSize && (!power_of_two_only || std::has_single_bit(c))) {
      if (unit && c % unit->bytes != 0) {
        notes.push_back(fmt::format("the md chunk {} is not a multiple of the {} {}: chunk boundaries split it",
                                    format_size(c), format_size(unit->bytes), unit->name));
      }
      return ChosenSize{c, "the chunk given"};
    }
    notes.push_back(fmt::format("the md chunk of {} bytes is not one mdadm accepts for RAID {} (a multiple of 4 KiB{}): "
                                "ssdprobe chooses one", c, md.level, power_of_two_only ? " and a power of two" : ""));
  }
  return choose_stripe_unit(unit, power_of_two_only);
}

std::optional<MdPlan> plan_md(const MdStripe& md, const std::optional<MemberUnit>& unit, uint64_t alignment,
                              std::vector<std::string>& notes) {
  if (!valid_level(md.level)) {
    notes.push_back(fmt::format("md RAID {} is not a level these commands create (0, 1, 4, 5, 6, 10): no md commands",
                                md.level));
    return std::nullopt;
  }
  if (md.member_count < minimum_members(md.level) || md.member_count > kMostMembers) {
    notes.push_back(fmt::format("md RAID {} with {} members is not an array mdadm creates ({} to {} members): no md "
                                "commands", md.level, md.member_count, minimum_members(md.level), kMostMembers));
    return std::nullopt;
  }
  MdPlan plan;
  plan.level = md.level;
  plan.members = md.member_count;
  plan.data_disks = data_disks_of(md.level, md.member_count);
  if (md.data_disks && md.level != 1) {
    if (*md.data_disks >= 1 && *md.data_disks <= md.member_count) {
      plan.data_disks = *md.data_disks;
    } else {
      notes.push_back(fmt::format("{} data disks cannot be right for {} members: using {}", *md.data_disks,
                                  md.member_count, plan.data_disks));
    }
  }
  plan.chunk = md_chunk(md, unit, notes);
  plan.data_offset = align_up(kMdHeadroom, alignment);
  return plan;
}

std::optional<ChosenSize> lvm_stripe_size(const LvmStripe& lvm, const std::optional<MemberUnit>& unit,
                                          std::vector<std::string>& notes) {
  if (lvm.stripe_bytes) {
    const uint64_t s = *lvm.stripe_bytes;
    // lvm2 toollib.c: a power of two, at least 4 KiB.
    if (s >= 4096 && s <= kLargestSize && std::has_single_bit(s)) {
      if (unit && s % unit->bytes != 0) {
        notes.push_back(fmt::format("the LV stripe size {} is not a multiple of the {} {}: stripe boundaries split it",
                                    format_size(s), format_size(unit->bytes), unit->name));
      }
      return ChosenSize{s, "the stripe size given"};
    }
    notes.push_back(fmt::format("an LV stripe size of {} bytes is not one lvcreate accepts (a power of two, at least "
                                "4 KiB): ssdprobe chooses one", s));
  }
  return choose_stripe_unit(unit, true);
}

LvmPlan plan_lvm(const LvmStripe& lvm, const std::optional<MdPlan>& md, const std::optional<MemberUnit>& unit,
                 uint64_t alignment, std::vector<std::string>& notes) {
  LvmPlan plan;
  plan.physical_volumes = std::clamp(lvm.physical_volumes, 1U, kMostMembers);
  if (md && plan.physical_volumes > 1) {
    notes.push_back("LVM on the md array: the array is the one PV; striping LVs over several arrays is not "
                    "recommended here");
    plan.physical_volumes = 1;
  }
  if (plan.physical_volumes > 1) {
    plan.stripes = lvm.stripes.value_or(plan.physical_volumes);
    if (plan.stripes < 1 || plan.stripes > plan.physical_volumes) {
      notes.push_back(fmt::format("{} LV stripes over {} PVs is not possible: striping over every PV", plan.stripes,
                                  plan.physical_volumes));
      plan.stripes = plan.physical_volumes;
    }
  } else if (lvm.stripes.value_or(1) > 1) {
    notes.push_back("a striped LV needs several PVs and this VG has one: the LV is linear");
  }
  if (plan.stripes > 1) {
    plan.stripe = lvm_stripe_size(lvm, unit, notes);
  } else {
    notes.push_back(fmt::format("one PV{}: no striped LV (lvcreate -i/-I spreads an LV over several PVs); the linear "
                                "LV starts on extent boundaries, which the aligned PV data area and extent size keep "
                                "aligned", plan.physical_volumes > 1 ? " used per LV" : ""));
  }
  // On an md array, LVM's data area starts on a full stripe (lvm.conf's
  // md_chunk_alignment does the same when it detects md).
  plan.data_alignment = alignment;
  if (md && md->chunk) plan.data_alignment = md->chunk->bytes * md->data_disks;
  uint64_t extent = kLvmDefaultExtent;
  for (uint64_t multiple_of : {plan.data_alignment, plan.stripe ? plan.stripe->bytes : uint64_t{1}}) {
    if (const auto lcm = capped_lcm(extent, multiple_of)) {
      extent = *lcm;
    } else {
      notes.push_back(fmt::format("no extent size up to 1 GiB is a multiple of {}: LV starts may not be aligned",
                                  format_size(multiple_of)));
    }
  }
  plan.extent = extent;
  return plan;
}

// --- The commands, one builder per layer ----------------------------------

struct Drive {
  std::string disk, partition;
};

struct Context {
  const GeometryForRecommendation& geometry;
  uint64_t logical_block;
  std::vector<Drive> drives;  // the target's first
  Recommendations& r;
};

std::vector<std::string> disks_of(const std::vector<Drive>& drives) {
  std::vector<std::string> out;
  for (const auto& d : drives) out.push_back(d.disk);
  return out;
}

std::vector<std::string> partitions_of(const std::vector<Drive>& drives) {
  std::vector<std::string> out;
  for (const auto& d : drives) out.push_back(d.partition);
  return out;
}

std::string one_or_many(const std::vector<std::string>& items, const char* one, const char* many) {
  return items.size() == 1 ? one : many;
}

RecommendedCommand destructive(std::string key, std::string command, std::string purpose, std::string warning,
                               std::string group = {}) {
  return {std::move(key), std::move(command), std::move(purpose), true, std::move(warning), std::move(group)};
}

// The partition type tells the next layer's tools what the partition holds.
struct PartitionType {
  const char* sfdisk;  // sfdisk(8) type alias
  const char* sgdisk;  // sgdisk(8) type code
  const char* parted;  // parted flag to set, or empty
};

void partition_steps(Context& c, PartitionType type) {
  Recommendations& r = c.r;
  const uint64_t start = r.partition_start_bytes / c.logical_block;
  const uint64_t alignment = r.partition_alignment_bytes / c.logical_block;
  std::vector<ShellCommand> parted, sfdisk, sgdisk;
  for (const auto& disk : disks_of(c.drives)) {
    ShellCommand one{{"parted", "--script", "--align", "none", disk, "mklabel", "gpt", "unit", "B", "mkpart", "primary",
                      fmt::format("{}B", r.partition_start_bytes), "100%"}};
    if (*type.parted) one.argv.insert(one.argv.end(), {"set", "1", type.parted, "on"});
    parted.push_back(one);
    sfdisk.push_back({{"sfdisk", disk}, {"label: gpt", fmt::format("start={}, type={}", start, type.sfdisk)}});
    sgdisk.push_back({{"sgdisk", "--clear", fmt::format("--set-alignment={}", alignment),
                       fmt::format("--new=1:{}:0", start), fmt::format("--typecode=1:{}", type.sgdisk), disk}});
  }
  const auto disks = disks_of(c.drives);
  const std::string purpose = fmt::format(
      "a new GPT on {} with one partition ({}) from {} (sector {} of {}, a multiple of {}) to the end",
      join(disks, ", "), join(partitions_of(c.drives), ", "), format_exact_size(r.partition_start_bytes), start,
      format_size(c.logical_block), format_size(r.partition_alignment_bytes));
  const std::string warning =
      fmt::format("erases the partition {} of {}: everything on {} becomes unreachable",
                  one_or_many(disks, "table", "tables"), join(disks, ", "), one_or_many(disks, "the disk", "these disks"));
  r.steps.push_back(destructive("parted", render_commands(parted), purpose, warning, "partition"));
  r.steps.push_back(destructive("sfdisk", render_commands(sfdisk), purpose, warning, "partition"));
  r.steps.push_back(destructive("sgdisk", render_commands(sgdisk), purpose, warning, "partition"));
}

// Returns the array's node.
std::string mdadm_step(Context& c, const MdPlan& md) {
  const std::string array = "/dev/md0";
  const auto members = partitions_of(c.drives);
  ShellCommand mdadm{{"mdadm", "--create", array, "--run", "--metadata=1.2", fmt::format("--level={}", md.level),
                      fmt::format("--raid-devices={}", md.members)}};
  std::string chunk_purpose;
  if (md.chunk) {
    mdadm.argv.push_back(fmt::format("--chunk={}", size_arg(md.chunk->bytes, true)));
    chunk_purpose = fmt::format(", {} chunk ({}), {} data disks per stripe", format_size(md.chunk->bytes), md.chunk->why,
                                md.data_disks);
  }
  mdadm.argv.push_back(fmt::format("--data-offset={}", size_arg(md.data_offset, true)));
  mdadm.argv.insert(mdadm.argv.end(), members.begin(), members.end());
  const std::string command = render_command(mdadm);
  const std::string purpose = fmt::format(
      "md RAID {} of {} members{}; data starts {} into each member, a multiple of the {} partition alignment. {} is a "
      "name to choose: use an md device that is not in use", md.level, md.members, chunk_purpose,
      format_size(md.data_offset), format_size(c.r.partition_alignment_bytes), array);
  const std::string warning = fmt::format("writes md superblocks over {}: what {} held becomes unreachable",
                                          join(members, ", "), one_or_many(members, "it", "they"));
  c.r.steps.push_back(destructive("mdadm", command, purpose, warning));
  return array;
}

// Returns the LV's node.
std::string lvm_steps(Context& c, const LvmPlan& lvm, const std::optional<std::string>& md_array) {
  std::vector<std::string> pvs;
  if (md_array) {
    pvs.push_back(*md_array);
  } else {
    const auto partitions = partitions_of(c.drives);
    pvs.assign(partitions.begin(), partitions.begin() + std::min<size_t>(lvm.physical_volumes, partitions.size()));
  }
  const std::string alignment_why =
      md_array && lvm.data_alignment != c.r.partition_alignment_bytes ? "the md array's full stripe"
                                                                       : "the partition alignment";
  ShellCommand pvcreate{{"pvcreate", "--yes", "--dataalignment", size_arg(lvm.data_alignment)}};
  pvcreate.argv.insert(pvcreate.argv.end(), pvs.begin(), pvs.end());
  ShellCommand vgcreate{{"vgcreate", "-s", size_arg(lvm.extent), "VG"}};
  vgcreate.argv.insert(vgcreate.argv.end(), pvs.begin(), pvs.end());
  c.r.steps.push_back(destructive(
      "pvcreate", render_command(pvcreate),
      fmt::format("LVM {} whose data area starts at a multiple of {} ({})",
                  one_or_many(pvs, "physical volume", "physical volumes"), format_size(lvm.data_alignment), alignment_why),
      fmt::format("turns {} into LVM {}: a filesystem or data on {} is lost", join(pvs, ", "),
                  one_or_many(pvs, "a physical volume", "physical volumes"), one_or_many(pvs, "it", "them"))));
  c.r.steps.push_back({"vgcreate", render_command(vgcreate),
                       fmt::format("volume group VG (a name to choose) with {} extents, a multiple of {}{}, so every "
                                   "LV segment starts aligned", format_size(lvm.extent), format_size(lvm.data_alignment),
                                   lvm.stripe ? " and of the LV stripe size" : ""),
                       false, "", ""});
  ShellCommand lvcreate{{"lvcreate", "--yes", "-n", "LV", "-l", "100%FREE"}};
  std::string striping_purpose;
  if (lvm.stripe) {
    lvcreate.argv.insert(lvcreate.argv.end(), {"-i", std::to_string(lvm.stripes), "-I", size_arg(lvm.stripe->bytes)});
    striping_purpose = fmt::format(", striped over {} PVs in {} pieces ({})", lvm.stripes,
                                   format_size(lvm.stripe->bytes), lvm.stripe->why);
  }
  lvcreate.argv.push_back("VG");
  c.r.steps.push_back({"lvcreate", render_command(lvcreate),
                       fmt::format("logical volume LV (a name to choose) over all of VG{}: /dev/VG/LV", striping_purpose),
                       false, "", ""});
  return "/dev/VG/LV";
}

// What a 4 KiB filesystem block means for the unit that was found: inside
// one when partitions are aligned, but a write smaller than the unit still
// pays for all of it.
std::string unit_versus_blocks(const GeometryForRecommendation& g) {
  const auto unit = member_unit(g);
  if (!unit) return "no write unit or read page was found";
  if (unit->bytes <= kDefaultFilesystemBlock) {
    return fmt::format("the {} is {}: 4 KiB filesystem blocks cover it", unit->name, format_size(unit->bytes));
  }
  const std::string cost = g.partial_write_cost_us && std::string_view(unit->name) == "write unit"
                               ? fmt::format(" (measured: +{:.1f} us for each write unit a write covers only in part)",
                                             *g.partial_write_cost_us)
                               : "";
  return fmt::format("the {} is {}: aligned partitions keep every 4 KiB block inside one, but an IO smaller than {} "
                     "still costs a whole one{}; larger IO, extents of {} (database pages, f2fs, the block-size "
                     "advice) avoid that", unit->name, format_size(unit->bytes), format_size(unit->bytes), cost,
                     format_size(unit->bytes));
}

// The erase block is left out of the partition alignment; say what aligning
// to it would buy.
std::string erase_block_note(uint64_t erase_block, uint64_t alignment) {
  if (alignment % erase_block == 0) return "";
  return fmt::format("the {} erase block (a period of write stalls) is not in the partition alignment: a drive that "
                     "remaps writes gains nothing measured from partitions aligned to it, so the {} alignment stays; "
                     "only F2FS sections sized to it line up with it, and only on a partition that starts on a "
                     "multiple of {}", format_size(erase_block), format_size(alignment), format_size(erase_block));
}

// A write unit programmed in stripes over parallel units: what the stripe is
// for (the size of a write, not an alignment).
std::string write_stripe_note(uint64_t write_unit, uint64_t stripe) {
  return fmt::format("the {} write unit is programmed {} at a time on parallel units (a {} stripe): partitions and "
                     "filesystem blocks align to the {} write unit, not to the stripe, since a write that covers a "
                     "stripe only in part costs nothing extra; the stripe is a preferred write size: an aligned write "
                     "of up to {} costs one round of programs, so writing {} or a multiple of it at once (database "
                     "extents, f2fs, an application's write size) gets {} write units programmed in the time of one",
                     format_size(write_unit), stripe / write_unit, format_size(stripe), format_size(write_unit),
                     format_size(stripe), format_size(stripe), stripe / write_unit);
}

std::string no_stripe_note(const Context& c, const std::optional<MdPlan>& md, const std::optional<LvmPlan>& lvm) {
  std::string why = "a single drive has no stripe";
  // Its own write stripe is no RAID stripe: a partly covered one costs nothing (write_stripe_note).
  if (c.geometry.write_stripe) {
    why = fmt::format("a single drive has no RAID stripe (its {} write stripe is a write size, not an alignment)",
                      format_size(*c.geometry.write_stripe));
  }
  if (md && md->level == 1) why = "RAID 1 mirrors without striping";
  if (lvm && lvm->physical_volumes > 1) why = "a linear LV has no stripe";
  const std::string units = unit_versus_blocks(c.geometry);
  return fmt::format("{}: xfs su/sw and ext4 stride/stripe_width describe RAID stripes, so the mkfs commands set "
                     "none; {}", why, units);
}

void filesystem_steps(Context& c, const std::string& device, const std::optional<Stripe>& stripe,
                      const std::optional<MdPlan>& md, const std::optional<LvmPlan>& lvm) {
  Recommendations& r = c.r;
  ShellCommand xfs{{"mkfs.xfs", "-f"}}, ext4{{"mkfs.ext4", "-F", "-b", "4096"}}, f2fs{{"mkfs.f2fs", "-f"}};
  std::string stripe_purpose;
  if (stripe) {
    const uint64_t stride = stripe->unit / kDefaultFilesystemBlock;
    xfs.argv.insert(xfs.argv.end(), {"-d", fmt::format("su={},sw={}", size_arg(stripe->unit), stripe->width)});
    ext4.argv.insert(ext4.argv.end(),
                     {"-E", fmt::format("stride={},stripe_width={}", stride, stride * stripe->width)});
    stripe_purpose = fmt::format(", told {}'s stripe: {} per disk, {} data disks", stripe->layer,
                                 format_size(stripe->unit), stripe->width);
  } else {
    r.notes.push_back(no_stripe_note(c, md, lvm));
  }
  const F2fsSections f2fs_plan = f2fs_sections(c.geometry.erase_block, r.partition_start_bytes,
                                               stripe ? stripe->layer : std::string());
  const std::optional<uint64_t> sections = f2fs_plan.segments;
  if (sections) f2fs.argv.insert(f2fs.argv.end(), {"-s", std::to_string(*sections)});
  if (!f2fs_plan.why.empty()) r.notes.push_back(f2fs_plan.why);
  for (ShellCommand* mkfs : {&xfs, &ext4, &f2fs}) mkfs->argv.push_back(device);
  const std::string warning = fmt::format("creates a new filesystem on {}: every file on it is lost", device);
  r.steps.push_back(destructive("mkfs_xfs", render_command(xfs),
                                fmt::format("XFS on {}{}", device, stripe_purpose), warning, "filesystem"));
  r.steps.push_back(destructive("mkfs_ext4", render_command(ext4),
                                fmt::format("ext4 with 4 KiB blocks on {}{}", device, stripe_purpose), warning,
                                "filesystem"));
  r.steps.push_back(destructive(
      "mkfs_f2fs", render_command(f2fs),
      !sections ? fmt::format("F2FS on {}", device)
                : fmt::format("F2FS on {} whose sections ({} segments of 2 MiB) each cover one erase block", device,
                              *sections),
      warning, "filesystem"));
}

// Sector counts need the logical block; one that is not a power of two from
// 512 B to 64 KiB cannot be real.
uint64_t checked_logical_block(uint64_t logical_block, std::vector<std::string>& notes) {
  if (logical_block >= 512 && logical_block <= 65536 && std::has_single_bit(logical_block)) return logical_block;
  notes.push_back(fmt::format("a logical block of {} bytes cannot be right: sector counts assume 512 bytes",
                              logical_block));
  return 512;
}

std::vector<Drive> drives_for(unsigned count, const std::string& disk, const std::string& partition,
                              const std::vector<std::string>& other_disks, std::vector<std::string>& notes) {
  std::vector<Drive> drives{{disk, partition}};
  bool placeholders = false;
  for (unsigned i = 1; i < count; ++i) {
    if (i - 1 < other_disks.size()) {
      drives.push_back({other_disks[i - 1], first_partition_path(other_disks[i - 1])});
    } else {
      drives.push_back({fmt::format("DISK{}", i + 1), fmt::format("PARTITION{}", i + 1)});
      placeholders = true;
    }
  }
  if (placeholders) {
    notes.push_back("DISK2, DISK3, ... and PARTITION2, PARTITION3, ... stand for the other drives and their first "
                    "partitions: replace them with their device nodes");
  }
  return drives;
}

}  // namespace

uint64_t partition_alignment(const GeometryForRecommendation& g, std::vector<std::string>& notes) {
  uint64_t alignment = kMiB;
  // Not the erase block: it is a period of stalls in a sequential stream,
  // and a drive that remaps writes gains nothing measured from partitions
  // aligned to it (erase_block_note says what it does buy).
  for (const auto& unit : {g.read_page, g.write_unit, g.allocation_unit}) {
    if (!unit || *unit == 0) continue;
    if (const auto lcm = capped_lcm(alignment, *unit)) {
      alignment = *lcm;
    } else {
      notes.push_back(fmt::format("no alignment up to 1 GiB is a multiple of {} bytes: that unit is left out",
                                  *unit));
    }
  }
  if (g.allocation_unit && *g.allocation_unit != 0 && alignment % *g.allocation_unit == 0) {
    notes.push_back(fmt::format("the card's {} allocation unit (preferred erase size) is in the partition alignment: "
                                "the card manages data per allocation unit, as the SD formatter's layout assumes",
                                format_size(*g.allocation_unit)));
  }
  return alignment;
}

std::string first_partition_path(const std::string& disk_path) {
  if (!disk_path.empty() && std::isdigit(static_cast<unsigned char>(disk_path.back()))) return disk_path + "p1";
  return disk_path + "1";
}

const RecommendedCommand* find_step(const Recommendations& recommendations, std::string_view key) {
  for (const auto& step : recommendations.steps) {
    if (step.key == key) return &step;
  }
  return nullptr;
}

Recommendations recommend(const GeometryForRecommendation& g, const StackForRecommendation& stack,
                          const std::string& disk_path, const std::string& partition_path, bool target_is_partition) {
  Recommendations r;
  const uint64_t alignment = partition_alignment(g, r.notes);
  r.partition_alignment_bytes = alignment;
  r.partition_start_bytes = alignment;
  r.filesystem_block_bytes = kDefaultFilesystemBlock;
  r.block_size = block_size_policy(g.read_page, g.write_unit);
  const bool any_unit = g.read_page || g.write_unit || g.erase_block;
  if (!any_unit) {
    // Nothing measured (info, audit) or nothing found: 1 MiB is the safe
    // default, but nothing here shows it is right for this drive.
    r.notes.insert(r.notes.begin(), "no unit was found, so these are the defaults: 1 MiB alignment (parted, "
                                    "fdisk, sfdisk, sgdisk and LVM use it) covers the units of most drives");
  } else if (alignment == kMiB) {
    r.notes.insert(r.notes.begin(), "1 MiB alignment (the default of parted, fdisk, sfdisk, sgdisk and LVM) is already a "
                                    "multiple of every read page and write unit determined");
  } else {
    r.notes.insert(r.notes.begin(), fmt::format("partitions should start on multiples of {}, not just 1 MiB",
                                                format_size(alignment)));
  }
  if (g.erase_block && *g.erase_block > 0) {
    if (const std::string note = erase_block_note(*g.erase_block, alignment); !note.empty()) r.notes.push_back(note);
  }
  if (g.write_stripe && g.write_unit && *g.write_unit > 0 && *g.write_stripe > *g.write_unit) {
    r.notes.push_back(write_stripe_note(*g.write_unit, *g.write_stripe));
  }
  std::string first_partition = partition_path;
  if (target_is_partition) {
    first_partition = first_partition_path(disk_path);
    r.notes.push_back(fmt::format("the target {} is a partition: these commands rebuild all of {} with one partition, "
                                  "{}; to keep the disk's other partitions, instead move {} to a start that is a "
                                  "multiple of {}", partition_path, disk_path, first_partition, partition_path,
                                  format_size(alignment)));
  }
  const auto unit = member_unit(g);
  std::optional<MdPlan> md;
  if (stack.md) md = plan_md(*stack.md, unit, alignment, r.notes);
  std::optional<LvmPlan> lvm;
  if (stack.lvm) lvm = plan_lvm(*stack.lvm, md, unit, alignment, r.notes);

  const unsigned drive_count = md ? md->members : (lvm ? lvm->physical_volumes : 1);
  Context c{g, checked_logical_block(g.logical_block, r.notes),
            drives_for(drive_count, disk_path, first_partition, stack.other_disks, r.notes), r};
  partition_steps(c, md ? PartitionType{"raid", "fd00", "raid"}
                        : lvm ? PartitionType{"lvm", "8e00", "lvm"} : PartitionType{"linux", "8300", ""});
  std::string device = first_partition;
  std::optional<Stripe> stripe;
  std::optional<std::string> array;
  if (md) {
    array = mdadm_step(c, *md);
    device = *array;
    if (md->chunk) stripe = Stripe{md->chunk->bytes, md->data_disks, fmt::format("md RAID {}", md->level)};
  }
  if (lvm) {
    device = lvm_steps(c, *lvm, array);
    if (lvm->stripe) stripe = Stripe{lvm->stripe->bytes, lvm->stripes, "the striped LV"};
  } else {
    r.notes.push_back(fmt::format("for LVM on {}: pvcreate --dataalignment {} and a vgcreate extent size that is a "
                                  "multiple of it keep it aligned", device, size_arg(md && md->chunk
                                      ? md->chunk->bytes * md->data_disks : alignment)));
  }
  filesystem_steps(c, device, stripe, md, lvm);
  append_block_size_advice(r, g, device);
  r.notes.insert(r.notes.end(), g.parallelism_advice.begin(), g.parallelism_advice.end());
  return r;
}

Recommendations recommend(const GeometryForRecommendation& geometry, const std::string& disk_path,
                          const std::string& partition_path, bool target_is_partition) {
  return recommend(geometry, StackForRecommendation{}, disk_path, partition_path, target_is_partition);
}

}  // namespace ssdprobe
