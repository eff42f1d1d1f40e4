#include "layout/audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "analysis/recommend.h"
#include "core/block_math.h"
#include "core/units.h"
#include "layout/table_audit.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t k4KiB = 4096;

struct UnitCheck {
  std::string name;
  uint64_t bytes;
  Severity severity;  // of missing it
};

// The boundaries a layer start should sit on, with what missing each costs:
// the 4 KiB and physical block boundaries are what every filesystem and the
// kernel assume (a miss splits every block IO: error); the drive's measured
// page and write unit are where reads and writes get slower (warning); 1 MiB
// is convention (info). Not the erase block: it is a period of write stalls,
// and a drive that remaps writes gains nothing measured from starts aligned
// to it (the recommendations say so; F2FS sections are checked against it).
std::vector<UnitCheck> start_checks(const AuditUnits& units) {
  std::vector<UnitCheck> checks = {
      {"logical block", units.logical_block, Severity::error},
      {"4 KiB", k4KiB, Severity::error},
      {"physical block", units.physical_block, Severity::error},
  };
  if (units.read_page) checks.push_back({"read page", *units.read_page, Severity::warning});
  if (units.write_unit) checks.push_back({"write unit", *units.write_unit, Severity::warning});
  checks.push_back({"1 MiB", kMiB, Severity::info});
  return checks;
}

// The units a stripe setting (md chunk, LVM stripe, xfs sunit) should be a
// multiple of: a stripe unit that splits a page or write unit makes every
// full-stripe write end inside one.
std::vector<UnitCheck> stripe_checks(const AuditUnits& units) {
  std::vector<UnitCheck> checks = {{"4 KiB", k4KiB, Severity::error}};
  if (units.read_page) checks.push_back({"read page", *units.read_page, Severity::warning});
  if (units.write_unit) checks.push_back({"write unit", *units.write_unit, Severity::warning});
  return checks;
}

std::string unit_text(const UnitMiss& miss) {
  if (miss.unit == "4 KiB" || miss.unit == "1 MiB") return miss.unit;
  return fmt::format("the {} ({})", miss.unit, format_size(miss.unit_bytes));
}

std::string legacy_case(uint64_t start, bool gpt) {
  if (start == 63 * 512) return "sector 63 (DOS / Windows XP partitioning)";
  if (start == 3 * 512) return "1536 B (sector 3)";
  if (gpt && start == 34 * 512) return "sector 34 (GPT's first usable sector, no alignment)";
  if (start % k4KiB != 0) return fmt::format("{} B: not a multiple of 4 KiB", start);
  return "";
}

std::string names_of(const std::vector<UnitCheck>& checks) {
  std::string text;
  for (const auto& check : checks) {
    if (!text.empty()) text += ", ";
    text += check.name == "4 KiB" || check.name == "1 MiB" ? check.name
                                                           : fmt::format("{} {}", check.name, format_size(check.bytes));
  }
  return text;
}

std::string miss_text(const std::vector<UnitMiss>& misses) {
  std::string text;
  for (const auto& miss : misses) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} past a boundary of {}", format_size(miss.remainder), unit_text(miss));
  }
  return text;
}

// A line for `value` checked against `checks`: OK when it misses none,
// else as severe as the worst unit it misses. The caller words the message.
AuditLine checked_line(const std::string& field, const std::string& layer, uint64_t value,
                       const std::vector<UnitCheck>& checks) {
  AuditLine line;
  line.field = field;
  line.layer = layer;
  line.value_bytes = value;
  for (const auto& check : checks) {
    if (check.bytes == 0 || value % check.bytes == 0) continue;
    line.misses.push_back({check.name, check.bytes, value % check.bytes});
    line.severity = std::max(line.severity, check.severity);
  }
  line.ok = line.misses.empty();
  return line;
}

// A value that must be a multiple of the stripe-relevant units.
AuditLine stripe_line(const std::string& field, const std::string& layer, uint64_t value, const AuditUnits& units,
                      const std::string& what) {
  const auto checks = stripe_checks(units);
  AuditLine line = checked_line(field, layer, value, checks);
  line.message = line.ok ? fmt::format("{} {}: a multiple of {}", what, format_size(value), names_of(checks))
                         : fmt::format("{} {} is not a multiple of {}: {}", what, format_size(value),
                                       unit_text(line.misses.front()), miss_text(line.misses));
  return line;
}

// A value that must equal what the layer below says.
AuditLine must_equal(const std::string& field, const std::string& layer, uint64_t value, uint64_t expected,
                     const std::string& what, const std::string& below) {
  AuditLine line;
  line.field = field;
  line.layer = layer;
  line.value_bytes = value;
  line.ok = value == expected;
  line.severity = line.ok ? Severity::info : Severity::warning;
  line.suggested_bytes = expected;
  line.message = line.ok ? fmt::format("{} {} matches {}", what, format_size(value), below)
                         : fmt::format("{} is {} but {} is {}", what, value ? format_size(value) : "not set", below,
                                       format_size(expected));
  return line;
}

struct StackContext {
  std::string prefix;      // "partition[2]." or "" for the whole disk
  std::string name;        // "partition 2 (/dev/loop0p2)" or "disk"
  const LayoutStack* stack;
};



class Auditor {
 public:
  Auditor(const DiskLayout& layout, const AuditUnits& units, LayoutAudit& out)
      : layout_(layout), units_(units), out_(out) {}

  void run() {
    const bool gpt = layout_.table && layout_.table->scheme == "gpt";
    // What is wrong with the table itself first: it matters more than any
    // alignment, and the verdict names the first of equal findings.
    const TableFindings table = table_findings(layout_);
    for (const auto& [number, lines] : table.of_partition) {
      const size_t first_line = out_.lines.size();
      out_.lines.insert(out_.lines.end(), lines.begin(), lines.end());
      withhold_fixes(first_line, table.withheld_for(number));
    }
    out_.lines.insert(out_.lines.end(), table.of_table.begin(), table.of_table.end());
    for (const auto& stack : layout_.stacks) {
      const size_t first_line = out_.lines.size();
      StackContext ctx{"", "disk", &stack};
      if (stack.partition) {
        ctx.prefix = fmt::format("partition[{}].", stack.partition->number);
        ctx.name = stack.node.empty() ? fmt::format("partition {}", stack.partition->number)
                                      : fmt::format("partition {} ({})", stack.partition->number, stack.node);
        start(ctx.prefix + "start", ctx.name, stack.start_disk_offset, gpt);
        size_line(ctx);
      }
      md_lines(ctx);
      lvm_lines(ctx);
      filesystem_lines(ctx);
      // A table that goes on past what was read, or could not be read at
      // all, withholds the whole disk's fixes too.
      withhold_fixes(first_line, stack.partition ? table.withheld_for(stack.partition->number) : table.withheld_for_all);
    }
    kernel_agreement(table);
  }

 private:
  // Lines from `first` on get no fix that writes, only these words.
  void withhold_fixes(size_t first, const std::string& why) {
    if (why.empty()) return;
    for (size_t i = first; i < out_.lines.size(); ++i) {
      if (!out_.lines[i].ok) out_.lines[i].fix_withheld = why;
    }
  }

  void start(const std::string& field, const std::string& layer, uint64_t offset, bool gpt) {
    AuditLine line = audit_start(field, layer, offset, units_);
    line.legacy_case = line.ok ? "" : legacy_case(offset, gpt);
    if (!line.legacy_case.empty() && !line.message.empty()) line.message += " — " + line.legacy_case;
    out_.lines.push_back(std::move(line));
  }

  // A size that is not a multiple of 4 KiB only leaves its last bytes
  // unusable (filesystems end on a whole block); every partitioner's "to the
  // end" does it on GPT disks (the backup table takes 33 sectors). Worth
  // saying, not worth calling the layout misaligned: the line is OK.
  void size_line(const StackContext& ctx) {
    const uint64_t size = ctx.stack->partition->size_bytes;
    if (size % k4KiB == 0) return;  // only worth a line when it is odd
    AuditLine line;
    line.field = ctx.prefix + "size";
    line.layer = ctx.name;
    line.value_bytes = size;
    line.misses = {{"4 KiB", k4KiB, size % k4KiB}};
    line.message = fmt::format("size {} B is not a multiple of 4 KiB: its last {} B hold no whole 4 KiB block "
                               "(harmless: nothing is misaligned by it)", size, size % k4KiB);
    out_.lines.push_back(std::move(line));
  }

  void md_lines(const StackContext& ctx) {
    if (!ctx.stack->md) return;
    const MdSuperblock& md = *ctx.stack->md;
    const std::string layer = fmt::format("md raid{} member{}", md.level,
                                          ctx.stack->partition ? " on " + ctx.name : "");
    start(ctx.prefix + "md.data_offset", layer, ctx.stack->start_disk_offset + md.data_offset_bytes, false);
    if (md.chunk_bytes != 0 && md.level != 1) {
      out_.lines.push_back(stripe_line(ctx.prefix + "md.chunk", layer, md.chunk_bytes, units_, "chunk"));
    }
  }

  void lvm_lines(const StackContext& ctx) {
    if (!ctx.stack->lvm) return;
    const LvmPhysicalVolume& pv = *ctx.stack->lvm;
    const uint64_t pv_start = pv_disk_offset(*ctx.stack);
    const std::string layer = pv.vg_name.empty() ? "LVM PV" : fmt::format("LVM PV of VG {}", pv.vg_name);
    start(ctx.prefix + "lvm.pe_start", layer, pv_start + pv.pe_start_bytes, false);
    if (!pv.extent_bytes) return;
    const uint64_t extent = *pv.extent_bytes;
    const uint64_t alignment = wanted_alignment(units_);
    AuditLine line;
    line.field = ctx.prefix + "lvm.extent_size";
    line.layer = layer;
    line.value_bytes = extent;
    line.ok = extent % alignment == 0;
    line.severity = line.ok ? Severity::info : Severity::warning;
    line.message = line.ok ? fmt::format("extent {}: every extent starts aligned when the data area does", format_size(extent))
                           : fmt::format("extent {} is not a multiple of {}: logical volumes after the first start "
                                         "misaligned", format_size(extent), format_size(alignment));
    if (!line.ok) line.misses = {{"alignment", alignment, extent % alignment}};
    out_.lines.push_back(std::move(line));
    for (const auto& segment : pv.segments) {
      const std::string lv = fmt::format("{}lvm.lv[{}]", ctx.prefix, segment.lv_name);
      const std::string lv_layer = fmt::format("LV {} (extents {}..)", segment.lv_name, segment.lv_start_extent);
      start(lv + ".start", lv_layer, pv_start + pv.pe_start_bytes + segment.pv_start_extent * extent, false);
      if (segment.stripes > 1 && segment.stripe_bytes) {
        out_.lines.push_back(stripe_line(lv + ".stripe_size", lv_layer, segment.stripe_bytes, units_, "stripe size"));
      }
    }
  }

  // The PV's byte 0 on the disk: inside an md array's data area when the PV
  // is on md (only followed when this member holds the array's start).
  static uint64_t pv_disk_offset(const LayoutStack& stack) {
    return stack.start_disk_offset + (stack.md ? stack.md->data_offset_bytes : 0);
  }

  void filesystem_lines(const StackContext& ctx) {
    if (!ctx.stack->filesystem) return;
    const FilesystemInfo& fs = *ctx.stack->filesystem;
    const std::string layer = fmt::format("{} on {}", fs.type, container_name(ctx));
    const std::string field = ctx.prefix + fs.type;
    if (fs.block_bytes != 0) block_line(field + ".block_size", layer, fs.block_bytes);
    if (fs.sector_bytes && *fs.sector_bytes < units_.logical_block) {
      AuditLine line;
      line.field = field + ".sector_size";
      line.layer = layer;
      line.value_bytes = *fs.sector_bytes;
      line.ok = false;
      line.severity = Severity::error;
      line.message = fmt::format("sector size {} B is below the drive's {} B logical block", *fs.sector_bytes,
                                 units_.logical_block);
      out_.lines.push_back(std::move(line));
    }
    stripe_settings(ctx, fs, field, layer);
    // btrfs writes metadata in nodes: a node that splits a page or write
    // unit costs a read-modify-write per metadata write.
    if (fs.node_bytes) out_.lines.push_back(stripe_line(field + ".node_size", layer, *fs.node_bytes, units_, "node"));
    if (fs.section_bytes && units_.erase_block) {
      AuditLine line;
      line.field = field + ".section_size";
      line.layer = layer;
      line.value_bytes = *fs.section_bytes;
      line.ok = *fs.section_bytes % *units_.erase_block == 0;
      line.severity = Severity::info;
      // F2FS lays its sections out from its own start: off an erase block no
      // section size lines up, and the default is what the recommendations
      // advise (analysis/block_size_policy.h).
      const bool plain = !ctx.stack->md && !ctx.stack->lvm;
      const uint64_t fs_start = ctx.stack->start_disk_offset;
      if (!line.ok && plain && fs_start % *units_.erase_block != 0) {
        line.ok = true;
        line.message = fmt::format("section {}: no section size lines up with the {} erase block from a start at {} "
                                   "(F2FS lays its sections out from its start), so the default is as good as any",
                                   format_size(*fs.section_bytes), format_size(*units_.erase_block),
                                   format_size(fs_start));
        out_.lines.push_back(std::move(line));
        return;
      }
      line.message = line.ok ? fmt::format("section {} covers whole erase blocks ({})", format_size(*fs.section_bytes),
                                           format_size(*units_.erase_block))
                             : fmt::format("section {} is not a multiple of the {} erase block: F2FS's cleaning "
                                           "unit splits erase blocks", format_size(*fs.section_bytes),
                                           format_size(*units_.erase_block));
      if (!line.ok) line.misses = {{"erase block", *units_.erase_block, *fs.section_bytes % *units_.erase_block}};
      out_.lines.push_back(std::move(line));
    }
  }

  void block_line(const std::string& field, const std::string& layer, uint32_t block) {
    AuditLine line;
    line.field = field;
    line.layer = layer;
    line.value_bytes = block;
    line.ok = block % units_.physical_block == 0 && block % units_.logical_block == 0;
    line.severity = line.ok ? Severity::info : Severity::warning;
    if (!line.ok) {
      line.message = fmt::format("block {} is smaller than or not a multiple of the {} B physical block: every block "
                                 "write is a read-modify-write", format_size(block), units_.physical_block);
      line.misses = {{"physical block", units_.physical_block, block % units_.physical_block}};
    } else if (block < k4KiB) {
      small_block(line, layer);
    } else {
      line.message = fmt::format("block {}: a multiple of the {} B physical block", format_size(block),
                                 units_.physical_block);
    }
    out_.lines.push_back(std::move(line));
  }

  // A block below 4 KiB (mkfs.ext4 -b 1024, the default of small ext4s):
  // each lone block IO (metadata, a small file's sync) costs a whole read
  // page or write unit where the drive's is larger, a warning with what it
  // costs (the ratio of sizes; audit_cost.h adds the grids' latencies). Not
  // blocks of 4 KiB and more below a larger unit: 4 KiB is what the
  // recommendations make (larger blocks are their block-size advice, which
  // not every filesystem can follow).
  void small_block(AuditLine& line, const std::string& layer) {
    const uint64_t block = line.value_bytes;
    std::string costs;
    auto unit_above = [&](const char* name, std::optional<uint64_t> unit, const char* io, const char* does) {
      if (!unit || *unit <= block) return;
      line.misses.push_back({name, *unit, block % *unit});
      costs += fmt::format("{}a lone block {} {} a whole {} ({}, {}x its size)", costs.empty() ? "" : "; ", io, does,
                           name, format_size(*unit), *unit / block);
    };
    unit_above("read page", units_.read_page, "read", "senses");
    unit_above("write unit", units_.write_unit, "write", "programs");
    if (line.misses.empty()) {
      const bool no_units = !units_.read_page && !units_.write_unit;
      line.message = fmt::format("block {}: a multiple of the {} B physical block{}", format_size(block),
                                 units_.physical_block,
                                 no_units ? "; below 4 KiB (see the notes)" : ", and no smaller than the drive's units");
      if (no_units) {
        out_.notes.push_back(fmt::format(
            "{}: {} blocks are below 4 KiB; the drive's read page and write unit are not known here, so whether a "
            "lone block IO costs a whole page or write unit is not stated (run ssdprobe on the drive, or audit with "
            "--units-from)", layer, format_size(block)));
      }
      return;
    }
    line.ok = false;
    line.severity = Severity::warning;
    line.suggested_bytes = std::max<uint64_t>(k4KiB, units_.physical_block);
    line.message = fmt::format("block {} is smaller than the drive's {}: {}", format_size(block),
                               line.misses.size() == 2 ? "read page and write unit" : line.misses.front().unit, costs);
  }

  // xfs sunit/swidth and ext4 stride/stripe_width: equal to the stripe below
  // when there is one; otherwise, if set at all, a multiple of the units.
  void stripe_settings(const StackContext& ctx, const FilesystemInfo& fs, const std::string& field,
                       const std::string& layer) {
    const bool is_ext = fs.type == "ext2" || fs.type == "ext3" || fs.type == "ext4";
    if (fs.type != "xfs" && !is_ext) return;
    const std::string unit_name = is_ext ? "stride" : "sunit";
    const std::string width_name = is_ext ? "stripe_width" : "swidth";
    const uint64_t unit = fs.stripe_unit_bytes.value_or(0);
    const uint64_t width = fs.stripe_width_bytes.value_or(0);
    if (const auto stripe = stripe_below(*ctx.stack)) {
      out_.lines.push_back(must_equal(field + "." + unit_name, layer, unit, stripe->unit, unit_name, stripe->source));
      out_.lines.push_back(must_equal(field + "." + width_name, layer, width, stripe->width, width_name,
                                      "the full stripe below"));
      return;
    }
    if (unit == 0 && width == 0) return;
    if (unit <= fs.block_bytes && width <= fs.block_bytes) {
      out_.lines.push_back(one_block_stripe(field + "." + unit_name, layer, unit, unit_name));
      return;
    }
    if (unit != 0) out_.lines.push_back(claimed_stripe(field + "." + unit_name, layer, unit, unit_name));
    if (width != 0) out_.lines.push_back(claimed_stripe(field + "." + width_name, layer, width, width_name));
  }

  // A stripe setting with no md array or striped LV below it: the
  // filesystem rounds allocations (xfs: files and allocation groups, ext4:
  // block groups and large extents) to a stripe nothing stripes, which
  // wastes the gaps and gains nothing, even when the value happens to be a
  // multiple of the drive's units. Still checked against them, so a value
  // that also splits a page says so.
  AuditLine claimed_stripe(const std::string& field, const std::string& layer, uint64_t value,
                           const std::string& what) {
    AuditLine line = stripe_line(field, layer, value, units_, what);
    const std::string also = line.ok ? "" : fmt::format("; and {} is not a multiple of {}: {}", format_size(value),
                                                        unit_text(line.misses.front()), miss_text(line.misses));
    line.ok = false;
    line.severity = std::max(line.severity, Severity::warning);
    line.suggested_bytes = 0;
    line.message = fmt::format("{} {} claims a RAID stripe that does not exist (no md array or striped LV below): "
                               "allocations are rounded to it and the gaps wasted, for no gain{}",
                               what, format_size(value), also);
    return line;
  }

  // xfs cannot store "no stripe" once made with one: a mount with sunit of
  // one block is the nearest (audit_fix.cc), and aligning to one block
  // constrains nothing, so it is OK.
  static AuditLine one_block_stripe(const std::string& field, const std::string& layer, uint64_t value,
                                    const std::string& what) {
    AuditLine line;
    line.field = field;
    line.layer = layer;
    line.value_bytes = value;
    line.message = fmt::format("{} {}: one filesystem block, which aligns nothing (no stripe claimed)", what,
                               format_size(value));
    return line;
  }

  static std::string container_name(const StackContext& ctx) {
    const std::string& c = ctx.stack->filesystem_container;
    if (c.starts_with("lvm:")) return "LV " + c.substr(4);
    if (c == "md") return "the md array";
    return ctx.name;
  }

  // The table on the disk and the kernel's partitions must describe the same
  // places: IO goes where the kernel says, tools read the table.
  void kernel_agreement(const TableFindings& table) {
    if (!layout_.table) return;
    std::unordered_multimap<int, const PartitionEntry*> by_number;
    for (const auto& entry : layout_.table->partitions) {
      if (!entry.container) by_number.emplace(entry.number, &entry);
    }
    for (const auto& kp : layout_.kernel_partitions) {
      const auto [first, last] = by_number.equal_range(kp.number);
      for (auto it = first; it != last; ++it) {
        const PartitionEntry& entry = *it->second;
        if (entry.start_bytes == kp.start_bytes && entry.size_bytes == kp.size_bytes) continue;
        AuditLine line;
        line.field = fmt::format("partition[{}].kernel_start", kp.number);
        line.layer = fmt::format("partition {} (/dev/{})", kp.number, kp.name);
        line.disk_offset = kp.start_bytes;
        line.value_bytes = kp.start_bytes;
        line.ok = false;
        line.severity = Severity::error;
        line.suggested_bytes = entry.start_bytes;
        line.message = fmt::format("the kernel addresses partition {} at {} B ({} B long) but the table says {} B "
                                   "({} B long): re-read the table (partx -u, or reboot) before trusting either",
                                   kp.number, kp.start_bytes, kp.size_bytes, entry.start_bytes, entry.size_bytes);
        line.fix_withheld = table.withheld_for(kp.number);
        out_.lines.push_back(std::move(line));
      }
    }
  }

  const DiskLayout& layout_;
  const AuditUnits& units_;
  LayoutAudit& out_;
};

}  // namespace

std::optional<StripeBelow> stripe_below(const LayoutStack& stack) {
  if (stack.lvm && stack.filesystem_container.starts_with("lvm:")) {
    for (const auto& segment : stack.lvm->segments) {
      if (("lvm:" + segment.lv_name) == stack.filesystem_container && segment.stripes > 1 && segment.stripe_bytes)
        return StripeBelow{segment.stripe_bytes, segment.stripe_bytes * segment.stripes, "the LV's stripe"};
    }
  }
  if (stack.md && stack.md->chunk_bytes && stack.md->level != 1 && stack.md->data_disks() > 1) {
    return StripeBelow{stack.md->chunk_bytes, stack.md->chunk_bytes * static_cast<uint64_t>(stack.md->data_disks()),
                       fmt::format("the md chunk ({} data disks)", stack.md->data_disks())};
  }
  return std::nullopt;
}

bool LayoutAudit::all_ok() const {
  for (const auto& line : lines) {
    if (!line.ok) return false;
  }
  return true;
}

uint64_t wanted_alignment(const AuditUnits& units) {
  GeometryForRecommendation geometry;
  geometry.read_page = units.read_page;
  geometry.write_unit = units.write_unit;
  geometry.erase_block = units.erase_block;
  std::vector<std::string> notes;  // the recommendations carry them
  const uint64_t alignment = partition_alignment(geometry, notes);
  return std::lcm(alignment, static_cast<uint64_t>(std::max<uint32_t>(units.physical_block, 1)));
}

AuditLine audit_start(const std::string& field, const std::string& layer, uint64_t disk_offset,
                      const AuditUnits& units) {
  const auto checks = start_checks(units);
  AuditLine line = checked_line(field, layer, disk_offset, checks);
  line.disk_offset = disk_offset;
  if (line.ok) {
    line.message = fmt::format("starts at {}: aligned to {}", format_size(disk_offset), names_of(checks));
  } else {
    line.suggested_bytes = align_up(disk_offset, wanted_alignment(units));
    line.message = fmt::format("starts at {} B ({}): {}; next aligned start {}", disk_offset,
                               format_size(disk_offset), miss_text(line.misses), format_size(*line.suggested_bytes));
  }
  return line;
}

namespace {

// A disk image is judged by the blocks of the loop device `losetup FILE`
// makes of it (512 B logical and physical), not those of the disk the file
// is stored on: the same bytes then give the same findings as a file and
// through a loop device, and the fixes run on that loop device (audit_fix.cc).
AuditUnits units_for(const DiskLayout& layout, const AuditUnits& units, std::vector<std::string>& notes) {
  if (!layout.image_file) return units;
  AuditUnits loop = units;
  loop.logical_block = 512;
  loop.physical_block = 512;
  notes.push_back(fmt::format("{} is a regular file: audited as the loop device `losetup` makes of it (512 B "
                              "logical and physical blocks{}); fixes that need a block device attach it first",
                              layout.disk_path,
                              units.physical_block == 512 ? ""
                                  : fmt::format(", not the {} B physical block of the disk it is stored on",
                                                units.physical_block)));
  return loop;
}

}  // namespace

LayoutAudit audit_layout(const DiskLayout& layout, const AuditUnits& given) {
  LayoutAudit audit;
  audit.layout = layout;
  const AuditUnits units = units_for(layout, given, audit.notes);
  audit.units = units;
  auto left_out = [&](const char* unit, const std::string& answer) {
    audit.notes.push_back(fmt::format("{} {}: starts are not checked against it", unit, answer));
  };
  if (!units.read_page) left_out("read page", units.read_page_answer);
  if (!units.write_unit) left_out("write unit", units.write_unit_answer);
  Auditor(layout, units, audit).run();
  for (const auto& note : layout.notes) audit.notes.push_back(note);
  for (const auto& stack : layout.stacks) {
    for (const auto& note : stack.notes) audit.notes.push_back(note);
  }
  return audit;
}

std::vector<Mismatch> audit_mismatches(const LayoutAudit& audit) {
  std::vector<Mismatch> mismatches;
  for (const auto& line : audit.lines) {
    if (line.ok) continue;
    Mismatch m;
    m.field = line.field;
    m.reported = static_cast<int64_t>(line.value_bytes);
    if (line.suggested_bytes) m.detected = static_cast<int64_t>(*line.suggested_bytes);
    m.severity = line.severity;
    m.message = line.layer + ": " + line.message;
    mismatches.push_back(std::move(m));
  }
  return mismatches;
}

}  // namespace ssdprobe
