#include "report/audit_render.h"
#include "report/enum_names.h"
#include "report/json_values.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

json unread_table_json(const std::optional<UnreadTable>& unread) {
  if (!unread) return nullptr;
  return {{"type", unread->type}, {"gpt_sector_bytes", json_or_null(unread->gpt_sector_bytes)}};
}

json partition_json(const PartitionEntry& p) {
  return {{"number", p.number}, {"start_bytes", p.start_bytes}, {"size_bytes", p.size_bytes},
          {"type", p.type},     {"name", p.name},               {"container", p.container}};
}

json md_json(const MdSuperblock& md) {
  return {{"version", "1." + std::to_string(md.minor_version)},
          {"superblock_offset_bytes", md.superblock_offset_bytes},
          {"data_offset_bytes", md.data_offset_bytes},
          {"data_size_bytes", md.data_size_bytes},
          {"chunk_bytes", md.chunk_bytes},
          {"level", md.level},
          {"layout", md.layout},
          {"raid_disks", md.raid_disks},
          {"data_disks", md.data_disks()},
          {"role", md.role},
          {"array_uuid", md.array_uuid},
          {"name", md.name}};
}

json lvm_json(const LvmPhysicalVolume& pv) {
  json segments = json::array();
  for (const auto& s : pv.segments) {
    segments.push_back({{"lv", s.lv_name}, {"lv_start_extent", s.lv_start_extent},
                        {"pv_start_extent", s.pv_start_extent}, {"extent_count", s.extent_count},
                        {"stripes", s.stripes}, {"stripe_bytes", s.stripe_bytes}});
  }
  return {{"label_offset_bytes", pv.label_offset_bytes}, {"pv_uuid", pv.pv_uuid},
          {"pe_start_bytes", pv.pe_start_bytes},         {"extent_bytes", json_or_null(pv.extent_bytes)},
          {"vg_name", pv.vg_name},                       {"segments", segments}};
}

json filesystem_json(const FilesystemInfo& fs) {
  return {{"type", fs.type},
          {"block_bytes", fs.block_bytes ? json(fs.block_bytes) : json(nullptr)},
          {"stripe_unit_bytes", json_or_null(fs.stripe_unit_bytes)},
          {"stripe_width_bytes", json_or_null(fs.stripe_width_bytes)},
          {"segment_bytes", json_or_null(fs.segment_bytes)},
          {"section_bytes", json_or_null(fs.section_bytes)},
          {"node_bytes", json_or_null(fs.node_bytes)},
          {"sector_bytes", json_or_null(fs.sector_bytes)},
          {"flex_bg_groups", json_or_null(fs.flex_bg_groups)},
          {"label", fs.label}};
}

json stack_json(const LayoutStack& s) {
  json j = {{"partition", s.partition ? json(s.partition->number) : json(nullptr)},
            {"node", s.node.empty() ? json(nullptr) : json(s.node)},
            {"start_bytes", s.start_disk_offset},
            {"size_bytes", s.size_bytes}};
  j["md"] = s.md ? md_json(*s.md) : json(nullptr);
  j["lvm"] = s.lvm ? lvm_json(*s.lvm) : json(nullptr);
  j["filesystem"] = s.filesystem ? filesystem_json(*s.filesystem) : json(nullptr);
  j["filesystem_disk_offset"] = s.filesystem ? json(s.filesystem_disk_offset) : json(nullptr);
  j["filesystem_container"] = s.filesystem ? json(s.filesystem_container) : json(nullptr);
  j["notes"] = s.notes;
  return j;
}

json cost_json(const AuditCost& c) {
  const MisalignmentCost& m = c.cost;
  json j = {{"op", c.op}, {"grid", c.grid}, {"request_bytes", c.request_bytes}, {"determined", m.determined}};
  if (m.determined) {
    j["ratio"] = rounded(m.ratio);
    j["ratio_low"] = rounded(m.ratio_low);
    j["ratio_high"] = rounded(m.ratio_high);
    j["significant"] = m.significant;
    j["aligned_median_us"] = rounded(m.aligned_median_us);
    j["at_start_median_us"] = rounded(m.at_start_median_us);
  }
  j["crossing_share"] = m.crossing_share ? json(rounded(*m.crossing_share)) : json(nullptr);
  j["aligned_crossing_share"] = m.aligned_crossing_share ? json(rounded(*m.aligned_crossing_share)) : json(nullptr);
  j["evidence"] = m.evidence;
  return j;
}

json line_json(const AuditLine& line) {
  json misses = json::array();
  for (const auto& m : line.misses) {
    misses.push_back({{"unit", m.unit}, {"unit_bytes", m.unit_bytes}, {"remainder_bytes", m.remainder}});
  }
  json costs = json::array();
  for (const auto& c : line.costs) costs.push_back(cost_json(c));
  json fix = json::array();
  for (const auto& f : line.fix) {
    fix.push_back({{"command", f.command}, {"purpose", f.purpose}, {"destroys_data", f.destroys_data},
                   {"moves_data", f.moves_data}, {"cost", f.cost}});
  }
  return {{"field", line.field},
          {"layer", line.layer},
          {"disk_offset", json_or_null(line.disk_offset)},
          {"value_bytes", line.value_bytes},
          {"ok", line.ok},
          {"severity", severity_name(line.severity)},
          {"misses", misses},
          {"legacy_case", line.legacy_case.empty() ? json(nullptr) : json(line.legacy_case)},
          {"suggested_bytes", json_or_null(line.suggested_bytes)},
          {"message", line.message},
          {"costs", costs},
          {"fix", fix}};
}

json units_json(const AuditUnits& u) {
  return {{"logical_block", u.logical_block}, {"physical_block", u.physical_block},
          {"read_page", json_or_null(u.read_page)}, {"write_unit", json_or_null(u.write_unit)},
          {"erase_block", json_or_null(u.erase_block)}, {"alignment", wanted_alignment(u)}};
}

}  // namespace

json audit_json(const std::optional<AuditSection>& section) {
  if (!section) return nullptr;
  json at = json::array();
  for (const auto& line : section->at) at.push_back(line_json(line));
  if (!section->layout) {
    return {{"available", false}, {"reason", section->unavailable_reason}, {"at", at}, {"files", nullptr}};
  }
  const LayoutAudit& a = *section->layout;
  const DiskLayout& l = a.layout;
  json table = nullptr;
  if (l.table) {
    json partitions = json::array();
    for (const auto& p : l.table->partitions) partitions.push_back(partition_json(p));
    table = {{"scheme", l.table->scheme}, {"sector_bytes", l.table->sector_bytes}, {"partitions", partitions}};
  }
  json kernel = json::array();
  for (const auto& k : l.kernel_partitions) {
    kernel.push_back({{"number", k.number}, {"name", k.name}, {"start_bytes", k.start_bytes},
                      {"size_bytes", k.size_bytes}, {"alignment_offset", json_or_null(k.alignment_offset)}});
  }
  json stacks = json::array();
  for (const auto& s : l.stacks) stacks.push_back(stack_json(s));
  json checks = json::array();
  for (const auto& line : a.lines) checks.push_back(line_json(line));
  return {{"available", true},
          {"disk", l.disk_path},
          {"disk_size_bytes", l.disk_size_bytes},
          {"logical_block", l.logical_block},
          {"units", units_json(a.units)},
          {"partition_table", table},
          {"unread_partition_table", unread_table_json(l.unread_table)},
          {"kernel_partitions", kernel},
          {"stacks", stacks},
          {"checks", checks},
          {"all_ok", a.all_ok()},
          {"at", at},
          {"notes", a.notes},
          {"files", section->files ? file_extents_json(*section->files) : json(nullptr)}};
}

}  // namespace ssdprobe
