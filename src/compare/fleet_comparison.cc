#include "compare/fleet_comparison.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>

#include "analysis/stats.h"
#include "core/units.h"
#include "report/unit_answer.h"

namespace ssdprobe {
namespace {

// The value a run gave for `boundary` in a list of (key, value) pairs.
double value_at(const std::vector<std::pair<uint64_t, double>>& list, uint64_t key) {
  for (const auto& [k, v] : list) {
    if (k == key) return v;
  }
  return std::nan("");
}

uint64_t most_common_read_size(const std::vector<const DocumentSummary*>& docs) {
  SizeTally sizes;
  for (const DocumentSummary* d : docs) {
    if (d->timed && d->cells.read_size != 0) sizes.add(d->cells.read_size);
  }
  sizes.finish();
  return sizes.top() ? sizes.top()->bytes.value_or(0) : 0;
}

std::vector<KeyCell> key_cells(const std::vector<const DocumentSummary*>& docs, const FleetGroup& group) {
  std::vector<KeyCell> cells;
  const uint64_t size = most_common_read_size(docs);
  const std::optional<uint64_t> page = group.read_page.agreed();
  const std::optional<uint64_t> unit = group.write_unit.agreed();

  KeyCell aligned{"read_aligned", "read", size, 0, "", {}};
  KeyCell straddle{"read_straddle", "read", size, 0, "", {}};
  std::vector<double> aligned_values, straddle_values;
  if (size == 0) {
    aligned.description = straddle.description = "no read grid with a 4 KiB row";
  } else {
    aligned.description = fmt::format("{} read at offset 0 (aligned)", format_size(size));
    if (page && *page > size / 2 && *page <= 128 * 1024) {
      straddle.offset = *page - size / 2;
      straddle.description = fmt::format("{} read at offset {} (across the agreed {} read page boundary)",
                                         format_size(size), format_size(straddle.offset), format_size(*page));
    } else {
      straddle.size = 0;
      straddle.description = "no agreed read page between 4 KiB and 128 KiB to straddle";
    }
    for (const DocumentSummary* d : docs) {
      if (!d->timed || d->cells.read_size != size) continue;
      aligned_values.push_back(d->cells.read_aligned_us);
      if (straddle.size != 0) straddle_values.push_back(value_at(d->cells.read_straddle_us, *page));
    }
  }
  aligned.spread = latency_spread(aligned_values);
  straddle.spread = latency_spread(straddle_values);

  KeyCell sub_unit{"write_sub_unit", "write", 4096, 0, "4 KiB write at offset 0 (part of a larger write unit)", {}};
  KeyCell whole_unit{"write_unit", "write", unit.value_or(0), 0, "", {}};
  whole_unit.description = unit ? fmt::format("{} write at offset 0 (one whole agreed write unit)", format_size(*unit))
                                : "no agreed write unit";
  std::vector<double> sub_values, unit_values;
  for (const DocumentSummary* d : docs) {
    if (!d->timed || d->cells.write_aligned_us.empty()) continue;
    sub_values.push_back(value_at(d->cells.write_aligned_us, 4096));
    if (unit) unit_values.push_back(value_at(d->cells.write_aligned_us, *unit));
  }
  sub_unit.spread = latency_spread(sub_values);
  whole_unit.spread = latency_spread(unit_values);
  if (sub_unit.spread.runs == 0) sub_unit.description = "no write grid (runs without --write)";
  return {aligned, straddle, sub_unit, whole_unit};
}

// Passes from the strictest: complete runs with the agreed read page, any
// complete run, then (a group of partial runs only) the same among all.
const DocumentSummary* representative(const std::vector<const DocumentSummary*>& docs, const FleetGroup& group) {
  const std::optional<uint64_t> page = group.read_page.agreed();
  const double target = group.key_cells.empty() ? 0.0 : group.key_cells.front().spread.median_us;
  const DocumentSummary* best = nullptr;
  double best_distance = 0.0;
  for (int pass = 0; pass < 4 && best == nullptr; ++pass) {
    const bool complete_only = pass < 2, agreed_page_only = pass % 2 == 0;
    for (const DocumentSummary* d : docs) {
      if (!d->timed || d->cells.read_size == 0) continue;
      if (complete_only && d->partial()) continue;
      if (agreed_page_only && page && d->read_page.bytes != page) continue;
      const double distance = std::isfinite(d->cells.read_aligned_us) ? std::abs(d->cells.read_aligned_us - target)
                                                                       : HUGE_VAL;
      if (best == nullptr || distance < best_distance) {
        best = d;
        best_distance = distance;
      }
    }
  }
  return best;
}

// The drive a document measured, as (how, what): its serial, else its
// WWID, else the host and the path it was reached by ("HOST:PATH"; PATH
// alone without a hostname). A path names a drive only on one host:
// /dev/vda on two hosts are two disks. `what` is empty when the document has
// neither serial, WWID nor path.
std::pair<GroupedBy, std::string> drive_identity(const DocumentSummary& d) {
  if (!d.serial.empty()) return {GroupedBy::serial, d.serial};
  if (!d.wwid.empty()) return {GroupedBy::wwid, d.wwid};
  if (d.path.empty()) return {GroupedBy::path, ""};
  return {GroupedBy::path, d.hostname.empty() ? d.path : d.hostname + ":" + d.path};
}

// What a group counts over its documents before it becomes FleetGroup
// fields: the distinct drives, and each mismatch field's documents in
// first-seen order.
struct GroupCounts {
  std::set<std::pair<GroupedBy, std::string>> drives;
  uint32_t without_identity = 0;
  std::map<std::string, uint32_t> mismatch_counts;
  std::vector<std::string> mismatch_order;
};

void add_firmware_geometry(FleetGroup& g, const DocumentSummary& d) {
  // (a plain loop variable, not a structured binding: clang 14, which
  // builds the fuzz targets, cannot capture bindings in a lambda)
  for (const auto& field : d.firmware_geometry) {
    auto it = std::find_if(g.firmware_geometry.begin(), g.firmware_geometry.end(),
                           [&](const auto& entry) { return entry.first == field.first; });
    if (it == g.firmware_geometry.end()) it = g.firmware_geometry.insert(g.firmware_geometry.end(), {field.first, {}});
    it->second.add(field.second);
  }
}

// One document into the group's tallies; the detected units and the
// alignment only from timed runs.
void add_document(FleetGroup& g, GroupCounts& counts, const DocumentSummary& d) {
  ++g.documents;
  g.newest_schema_minor = std::max(g.newest_schema_minor, d.schema_minor);
  const auto drive = drive_identity(d);
  if (drive.second.empty()) ++counts.without_identity;
  else counts.drives.insert(drive);
  g.logical_block.add(d.logical_block);
  g.physical_block.add(d.physical_block);
  g.minimum_io.add(d.minimum_io);
  g.optimal_io.add(d.optimal_io);
  add_firmware_geometry(g, d);
  for (const std::string& field : d.mismatch_fields) {
    if (counts.mismatch_counts[field]++ == 0) counts.mismatch_order.push_back(field);
  }
  if (!d.timed) {
    ++g.info_documents;
    return;
  }
  ++g.timed_runs;
  if (d.partial()) g.partial_runs.emplace_back(d.file, d.stopped);
  g.read_page.add(d.read_page);
  g.write_unit.add(d.write_unit);
  g.erase_block.add(d.erase_block);
  g.partition_alignment.add(d.partition_alignment);
}

// The drive count, the tallies sorted, and the mismatches most frequent
// first (ties in first-seen order).
void finish_counts(FleetGroup& g, const GroupCounts& counts) {
  g.drives = static_cast<uint32_t>(counts.drives.size()) + counts.without_identity;
  for (SizeTally* t : {&g.logical_block, &g.physical_block, &g.minimum_io, &g.optimal_io, &g.partition_alignment,
                       &g.read_page.found, &g.write_unit.found, &g.erase_block.found, &g.read_page.ruled_out_up_to,
                       &g.write_unit.ruled_out_up_to, &g.erase_block.ruled_out_up_to}) {
    t->finish();
  }
  for (auto& [name, tally] : g.firmware_geometry) tally.finish();
  for (const std::string& field : counts.mismatch_order) {
    g.mismatches.emplace_back(field, counts.mismatch_counts.at(field));
  }
  std::stable_sort(g.mismatches.begin(), g.mismatches.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
}

FleetGroup build_group(const GroupKey& key, const std::vector<const DocumentSummary*>& docs) {
  FleetGroup g;
  g.model = key.model;
  g.firmware = key.firmware;
  g.size_bytes = key.size_bytes;
  g.grouped_by = key.grouped_by;
  g.identity = key.identity;
  GroupCounts counts;
  for (const DocumentSummary* d : docs) add_document(g, counts, *d);
  finish_counts(g, counts);
  g.key_cells = key_cells(docs, g);
  if (const DocumentSummary* shown = representative(docs, g)) {
    g.representative = shown->file;
    g.representative_partial = shown->partial();
  }
  return g;
}

}  // namespace

void SizeTally::add(std::optional<uint64_t> bytes) {
  ++total;
  for (Entry& e : entries) {
    if (e.bytes == bytes) {
      ++e.count;
      return;
    }
  }
  entries.push_back({bytes, 1});
}

void SizeTally::finish() {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.bytes.has_value() != b.bytes.has_value()) return a.bytes.has_value();
    return a.bytes.value_or(0) < b.bytes.value_or(0);
  });
}

void UnitAgreement::add(const UnitReading& reading) {
  ++runs;
  switch (unit_answer(reading.state)) {
    case UnitAnswer::not_measured: ++not_measured; break;
    case UnitAnswer::ruled_out:
      ++ruled_out;
      // A reach of 0 says nothing (no unit up to nothing): as not recorded.
      ruled_out_up_to.add(reading.searched_up_to.value_or(0) > 0 ? reading.searched_up_to : std::nullopt);
      break;
    case UnitAnswer::found:
      // A found unit of 0 bytes is no unit (a damaged or foreign document):
      // counted as not determined, never agreed on (nothing divides by it).
      if (reading.bytes && *reading.bytes > 0) {
        found.add(reading.bytes);
        break;
      }
      [[fallthrough]];
    case UnitAnswer::not_determined: ++not_determined; break;
  }
}

std::optional<uint64_t> UnitAgreement::top_bytes() const { return found.top() ? found.top()->bytes : std::nullopt; }
uint32_t UnitAgreement::top_count() const { return found.top() ? found.top()->count : 0; }

std::optional<uint64_t> UnitAgreement::agreed(uint32_t min_runs) const {
  const uint32_t n = measured();
  if (n == 0 || n < min_runs || !top_bytes()) return std::nullopt;
  // top/n >= kAgreementPercent/100, in integers (no rounding at the edge).
  if (uint64_t{top_count()} * 100 < uint64_t{n} * kAgreementPercent) return std::nullopt;
  return top_bytes();
}

std::optional<uint64_t> UnitAgreement::ruled_out_reach() const {
  std::optional<uint64_t> reach;
  for (const SizeTally::Entry& e : ruled_out_up_to.entries) {
    if (!e.bytes) return std::nullopt;  // a run that did not say how far it saw
    reach = reach ? std::min(*reach, *e.bytes) : *e.bytes;
  }
  return reach;
}

LatencySpread latency_spread(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
  LatencySpread out;
  out.runs = static_cast<uint32_t>(values.size());
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  out.median_us = sorted_quantile(values, 0.5);
  out.p10_us = sorted_quantile(values, 0.1);
  out.p90_us = sorted_quantile(values, 0.9);
  return out;
}

const char* grouped_by_name(GroupedBy by) {
  switch (by) {
    case GroupedBy::model: return "model";
    case GroupedBy::serial: return "serial";
    case GroupedBy::wwid: return "wwid";
    case GroupedBy::path: return "path";
  }
  return "model";
}

GroupKey group_key(const DocumentSummary& document) {
  GroupKey key{document.model, document.firmware, document.size_bytes, GroupedBy::model, ""};
  if (document.model.empty()) std::tie(key.grouped_by, key.identity) = drive_identity(document);
  return key;
}

FleetCoverage fleet_coverage(const std::vector<DocumentSummary>& documents) {
  FleetCoverage out;
  std::map<std::string, uint32_t> versions;
  std::set<std::string> hosts;
  for (const DocumentSummary& d : documents) {
    ++versions[d.tool_version];
    if (d.hostname.empty()) ++out.without_hostname;
    else hosts.insert(d.hostname);
    ++(d.timed ? out.timed_runs : out.info_documents);
    if (d.timed && d.partial()) ++out.partial_runs;
    // started_at is fixed-width ISO 8601 UTC: text order is time order.
    if (d.started_at.empty()) continue;
    if (out.first_started_at.empty() || d.started_at < out.first_started_at) out.first_started_at = d.started_at;
    if (d.started_at > out.last_started_at) out.last_started_at = d.started_at;
  }
  out.versions.assign(versions.begin(), versions.end());
  std::stable_sort(out.versions.begin(), out.versions.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  out.hosts.assign(hosts.begin(), hosts.end());
  return out;
}

FleetComparison compare_fleet(const std::vector<DocumentSummary>& documents) {
  std::map<GroupKey, std::vector<const DocumentSummary*>> groups;
  for (const DocumentSummary& d : documents) groups[group_key(d)].push_back(&d);
  FleetComparison out;
  out.documents = static_cast<uint32_t>(documents.size());
  for (const auto& [key, docs] : groups) out.groups.push_back(build_group(key, docs));
  out.coverage = fleet_coverage(documents);
  return out;
}

}  // namespace ssdprobe
