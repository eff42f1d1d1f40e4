#include "run/verdict_phase.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <unistd.h>

#include "analysis/open_units.h"
#include "analysis/recommend.h"
#include "analysis/zoned_advice.h"
#include "core/units.h"
#include "layout/audit.h"
#include "run/stripe_parallelism.h"
#include "run/verdict_builder.h"

namespace ssdprobe {
namespace {

// The md array or striped LV the target already lives in, from the audit:
// the recommendations then keep it (chunk, stripes) instead of assuming a
// single drive.
StackForRecommendation existing_stack(const ResultDocument& doc) {
  StackForRecommendation stack;
  if (!doc.audit || !doc.audit->layout) return stack;
  for (const auto& s : doc.audit->layout->layout.stacks) {
    if (doc.kind == TargetKind::partition && s.start_disk_offset != doc.topology.partition_start_bytes) continue;
    if (s.md && s.md->level >= 0 && !stack.md) {
      stack.md = MdStripe{static_cast<unsigned>(s.md->level), static_cast<unsigned>(s.md->raid_disks),
                          static_cast<unsigned>(s.md->data_disks()),
                          s.md->chunk_bytes ? std::optional<uint64_t>(s.md->chunk_bytes) : std::nullopt};
    }
    if (s.lvm && !stack.lvm) {
      stack.lvm = LvmStripe{1, std::nullopt, std::nullopt};
      for (const auto& segment : s.lvm->segments) {
        if (segment.stripes > 1) {
          stack.lvm = LvmStripe{segment.stripes, segment.stripes, segment.stripe_bytes};
          break;
        }
      }
    }
  }
  return stack;
}

// "Nothing to change" when the audit found layers and every one is aligned.
std::optional<std::string> audit_verdict(const ResultDocument& doc) {
  if (!doc.audit || !doc.audit->layout || doc.audit->layout->lines.empty() || !doc.audit->layout->all_ok()) {
    return std::nullopt;
  }
  const LayoutAudit& a = *doc.audit->layout;
  return fmt::format("nothing to change: every layer on {} starts on a multiple of {} and its stripe settings "
                     "match the units checked ({} checks)", a.layout.disk_path, format_size(wanted_alignment(a.units)),
                     a.lines.size());
}

// The step of the write unit's per-partial-block level: what a write that
// covers only part of one costs.
std::optional<double> partial_write_cost(const DetectedUnit& write_unit) {
  if (!write_unit.bytes) return std::nullopt;
  for (const auto& level : write_unit.levels) {
    if (level.unit_bytes == *write_unit.bytes && level.cost == UnitCost::per_partial_block) return level.step_us;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// A zoned block device (or a partition of a host-aware one) gets the zoned
// advice for its whole disk instead of partitions and XFS/ext4.
bool fill_zoned_recommendations(ResultDocument& doc) {
  const Topology& t = doc.topology;
  const bool block = doc.kind == TargetKind::block || doc.kind == TargetKind::partition;
  if (!block || !t.zoned || !t.zoned->zoned() || t.disk_name.empty()) return false;
  ZonedForRecommendation zoned;
  zoned.model = t.zoned->model;
  zoned.zone_bytes = t.zoned->zone_bytes();
  if (doc.firmware.zones) {
    zoned.zone_capacity_bytes = doc.firmware.zones->zone_capacity_bytes;
    zoned.conventional_bytes = doc.firmware.zones->conventional_bytes;
  }
  doc.recommendations = recommend_zoned(zoned, "/dev/" + t.disk_name);
  doc.recommendations.verdict = audit_verdict(doc);
  return true;
}

}  // namespace

void fill_recommendations(ResultDocument& doc) {
  if (fill_zoned_recommendations(doc)) return;
  const Topology& t = doc.topology;
  std::string disk = doc.path, part = first_partition_path(doc.path);
  if (doc.kind == TargetKind::partition) {
    disk = "/dev/" + t.disk_name;
    part = doc.path;
  } else if (doc.kind == TargetKind::sim || doc.kind == TargetKind::file) {
    disk = "DISK";
    part = "PARTITION";
  }
  GeometryForRecommendation geometry;
  geometry.read_page = doc.read_page.bytes;
  geometry.write_unit = doc.write_unit.bytes;
  geometry.write_stripe = doc.write_stripe.bytes;
  geometry.erase_block = doc.erase_block.bytes;
  if (doc.firmware.mmc) geometry.allocation_unit = doc.firmware.mmc->preferred_erase_size;
  geometry.logical_block = t.logical_block_size.value_or(512);
  geometry.partial_write_cost_us = partial_write_cost(doc.write_unit);
  geometry.kernel_release = t.kernel_version;
  geometry.page_size = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (doc.parallelism) geometry.parallelism_advice = parallelism_advice(doc.parallelism->verdict);
  if (doc.write_parallelism) {
    for (auto& line : parallelism_advice(doc.write_parallelism->verdict)) geometry.parallelism_advice.push_back(line);
  }
  doc.recommendations = recommend(geometry, existing_stack(doc), disk, part, doc.kind == TargetKind::partition);
  doc.recommendations.verdict = audit_verdict(doc);
  for (auto& line : open_units_advice(doc.open_units.verdict, part)) doc.recommendations.notes.push_back(line);
  if (doc.kind == TargetKind::sim || doc.kind == TargetKind::file) {
    doc.recommendations.notes.push_back("replace DISK and PARTITION with the drive's device nodes");
  }
}

PhaseOutcome verdict_phase(RunContext& run) {
  tie_stripe_to_parallelism(run.doc);
  fill_recommendations(run.doc);
  const bool timed = std::any_of(run.doc.phases.begin(), run.doc.phases.end(),
                                 [](const PhaseRecord& p) { return p.name == "read_grid"; });
  run.doc.verdict = build_verdict(run.doc, RunFacts{timed, run.options.write, run.options.budget_s,
                                                       run.read_content && run.read_content->blank(),
                                                       run.options.shaping_args, run.options.max_write_bytes,
                                                       run.options.cache_bytes});
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
