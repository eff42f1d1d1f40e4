// `audit.files` of the result document: `audit FILE|DIR`'s extents per file
// (layout/file_audit.h). docs/result-json.md, "audit.files", defines it.
#include "report/audit_render.h"
#include "report/enum_names.h"
#include "report/json_values.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

json shares_json(const ExtentJudgement& j) {
  json out = json::array();
  for (const UnitShare& s : j.shares) {
    out.push_back({{"unit", s.unit.name}, {"unit_bytes", s.unit.bytes}, {"severity", severity_name(s.unit.severity)},
                   {"bytes", s.misaligned_bytes}, {"extents", s.misaligned_extents}, {"share", rounded(j.share(s))}});
  }
  return out;
}

json judgement_json(const ExtentJudgement& j) {
  json not_judged = json::array();
  for (const auto& [kind, bytes] : j.unjudged) {
    not_judged.push_back({{"kind", extent_kind_name(kind)}, {"bytes", bytes}, {"reason", extent_kind_reason(kind)}});
  }
  json worst = json::array();
  for (const JudgedExtent& w : j.worst) {
    worst.push_back({{"file_offset", w.logical}, {"disk_offset", w.disk_offset}, {"length", w.length},
                     {"misses", w.misses}});
  }
  return {{"size_bytes", j.file_bytes},         {"extents", j.extent_count},
          {"merged_extents", j.merged_count},   {"data_bytes", j.data_bytes},
          {"hole_bytes", j.hole_bytes},         {"largest_data_extent_bytes", j.largest_data_extent},
          {"misaligned", shares_json(j)},       {"not_judged", not_judged},
          {"worst_extents", worst}};
}

json file_json(const FileExtentReport& f) {
  json j = {{"path", f.path}};
  j.update(judgement_json(f.judgement));
  j["extent_size_hint_bytes"] = json_or_null(f.extent_size_hint);
  j["extents_cut"] = f.extents_cut;
  j["error"] = f.error.empty() ? json(nullptr) : json(f.error);
  return j;
}

json filesystem_json(const FileFilesystem& fs) {
  return {{"type", fs.type},
          {"block_bytes", fs.block_bytes},
          {"cluster_bytes", json_or_null(fs.cluster_bytes)},
          {"stripe_unit_bytes", json_or_null(fs.stripe_unit_bytes)},
          {"allocation_group_bytes", json_or_null(fs.allocation_group_bytes)},
          {"device", fs.device.empty() ? json(nullptr) : json(fs.device)},
          {"disk", fs.disk.empty() ? json(nullptr) : json(fs.disk)},
          {"disk_start_bytes", fs.disk_start},
          {"offsets_unknown", fs.offsets_unknown.empty() ? json(nullptr) : json(fs.offsets_unknown)}};
}

}  // namespace

json file_extents_json(const FileExtentsAudit& a) {
  json files = json::array();
  for (const FileExtentReport& f : a.files) files.push_back(file_json(f));
  json total = judgement_json(a.total);
  total.erase("worst_extents");
  total["files"] = a.files.size();
  return {{"root", a.root},
          {"directory", a.directory},
          {"filesystem", filesystem_json(a.filesystem)},
          {"directory_extent_size_hint_bytes", json_or_null(a.directory_hint)},
          {"files", files},
          {"total", total},
          {"skipped", {{"links", a.skipped_links}, {"mounts", a.skipped_mounts}, {"special", a.skipped_special}}},
          {"cut", a.cut}};
}

}  // namespace ssdprobe
