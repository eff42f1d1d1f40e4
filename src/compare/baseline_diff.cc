#include "compare/baseline_diff.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "compare/document_summary.h"
#include "core/error.h"
#include "core/units.h"
#include "report/unit_answer.h"

namespace ssdprobe {
namespace {

BaselineItem item_of(std::string what, std::string old_text, std::string new_text) {
  BaselineItem item;
  item.what = std::move(what);
  item.old_text = std::move(old_text);
  item.new_text = std::move(new_text);
  return item;
}

// The unit as every output words it (report/unit_answer.h: "none up to
// 42.6 MiB", "not determined"...), a found one with its confidence.
std::string unit_text(const SavedUnit& u) {
  if (u.state.empty()) return "not in the document";
  const UnitAnswer answer = unit_answer(u.state);
  const std::string text = unit_answer_text(answer, u.bytes, u.searched_up_to_bytes);
  if (answer == UnitAnswer::found && u.bytes) return fmt::format("{} (found, confidence {:.3f})", text, u.confidence);
  return text;
}

bool unmeasured(const SavedUnit& u) { return u.state.empty() || unit_answer(u.state) == UnitAnswer::not_measured; }

// A unit measured in only one run is not compared: a read-only run next to
// a --write run has no write unit, which is no change of the drive.
BaselineItem unit_item(const char* what, const SavedUnit& older, const SavedUnit& newer) {
  BaselineItem item = item_of(what, unit_text(older), unit_text(newer));
  if (unmeasured(older) || unmeasured(newer)) {
    item.not_compared = unmeasured(older) ? "not measured in the older run" : "not measured in the newer run";
    if (unmeasured(older) && unmeasured(newer)) item.not_compared = "measured in neither run";
    return item;
  }
  item.changed = older.state != newer.state || older.bytes != newer.bytes;
  return item;
}

BaselineItem text_item(const char* what, const std::string& older, const std::string& newer) {
  BaselineItem item = item_of(what, older.empty() ? "(none)" : older, newer.empty() ? "(none)" : newer);
  item.changed = older != newer;
  return item;
}

std::string bytes_text(const std::optional<uint64_t>& v) { return v ? fmt::format("{}", *v) : std::string("(none)"); }

BaselineItem kernel_item(const char* what, const std::optional<uint64_t>& older, const std::optional<uint64_t>& newer) {
  BaselineItem item = item_of(what, bytes_text(older), bytes_text(newer));
  item.changed = older != newer;
  return item;
}

std::string listed(const std::set<std::string>& names) {
  if (names.empty()) return "none";
  return fmt::format("{}", fmt::join(names, ", "));
}

std::set<std::string> mismatch_fields(const SavedResult& r) {
  std::set<std::string> fields;
  for (const SavedMismatch& m : r.mismatches) fields.insert(m.field);
  return fields;
}

BaselineItem mismatch_item(const SavedResult& older, const SavedResult& newer) {
  const auto a = mismatch_fields(older), b = mismatch_fields(newer);
  BaselineItem item = item_of("reported values contradicting the measured", listed(a), listed(b));
  item.changed = a != b;
  return item;
}

std::string findings_text(const SavedResult& r) {
  std::vector<std::string> parts;
  for (const auto& [severity, count] : r.findings_by_severity) parts.push_back(fmt::format("{} {}", severity, count));
  return fmt::format("{}", fmt::join(parts, ", "));
}

BaselineItem findings_item(const SavedResult& older, const SavedResult& newer) {
  BaselineItem item = item_of("audit findings", findings_text(older), findings_text(newer));
  if (older.findings_by_severity.empty() || newer.findings_by_severity.empty()) {
    item.not_compared = "a document without verdict.findings_by_severity";
    return item;
  }
  item.changed = older.findings_by_severity != newer.findings_by_severity;
  return item;
}

std::string wear_text(const SavedResult& r) {
  if (!r.percentage_used && !r.data_written_bytes) return "not reported";
  std::vector<std::string> parts;
  if (r.percentage_used) parts.push_back(fmt::format("{} % used", *r.percentage_used));
  if (r.data_written_bytes) parts.push_back(fmt::format("{} written", format_size(*r.data_written_bytes)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The drive's own wear counter: Percentage Used. Bytes written grow with
// every run and are shown, not counted as a change.
BaselineItem wear_item(const SavedResult& older, const SavedResult& newer) {
  BaselineItem item = item_of("wear (NVMe SMART log)", wear_text(older), wear_text(newer));
  if (!older.percentage_used || !newer.percentage_used) {
    item.not_compared = "the drive's Percentage Used is not in both documents";
    return item;
  }
  item.changed = older.percentage_used != newer.percentage_used;
  return item;
}

// The expected p90 - p10 of n standard normal samples, the percentiles
// interpolated between sorted samples as analysis/stats.cc takes them:
// twice the interpolated p90 of the order statistics' expectations (Blom's
// scores, the probit by Tukey's lambda, within 0.5 %). 2.563 for many
// samples, about 1.39 for 3: a cell of 3 samples spans less of its
// distribution, and dividing by 2.563 would understate its sigma twofold.
double normal_spread_factor(uint32_t n) {
  const auto probit = [](double p) { return 4.91 * (std::pow(p, 0.14) - std::pow(1.0 - p, 0.14)); };
  const double samples = n;
  const auto score = [&](double i) { return probit((i - 0.375) / (samples + 0.25)); };
  const double pos = 0.9 * (samples - 1.0), below = std::floor(pos);
  const double above = std::min(below + 2.0, samples);
  return 2.0 * (score(below + 1.0) + (pos - below) * (score(above) - score(below + 1.0)));
}

// A cell's median and its standard error: sigma from the p10-p90 spread
// (normal_spread_factor), the median's error 1.2533 sigma / sqrt(n).
struct CellStats {
  double median_us = 0.0, se_us = 0.0;
};

// The grid read with GridDetail::full: the reader checked that every
// matrix is sizes x offsets.
std::optional<CellStats> cell_stats(const SavedGrid& g, uint64_t size, uint64_t offset) {
  const auto cell = grid_cell_index(g, size, offset);
  if (!cell || g.samples.empty() || g.p10_us.empty()) return std::nullopt;
  const auto [s, o] = *cell;
  const double median = g.median_us[s][o], spread = g.p90_us[s][o] - g.p10_us[s][o];
  const uint32_t n = g.samples[s][o];
  if (n < 2 || !std::isfinite(median) || !std::isfinite(spread) || median <= 0.0) return std::nullopt;
  const double sigma = spread / normal_spread_factor(n);
  return CellStats{median, 1.2533 * sigma / std::sqrt(static_cast<double>(n))};
}

BaselineItem latency_item(uint64_t size, const CellStats& a, const CellStats& b) {
  BaselineItem item = item_of(fmt::format("{} read at offset 0 (median)", format_size(size)),
                              fmt::format("{:.1f} us", a.median_us), fmt::format("{:.1f} us", b.median_us));
  item.ratio = b.median_us / a.median_us;
  const double se = std::hypot(a.se_us, b.se_us);
  const double shift = std::abs(b.median_us - a.median_us);
  item.z = se > 0.0 ? shift / se : (shift > 0.0 ? INFINITY : 0.0);
  item.changed = *item.z >= kBaselineLeastZ && std::abs(*item.ratio - 1.0) >= kBaselineLeastRatio;
  return item;
}

// Aligned reads of 4 KiB, 16 KiB and 128 KiB where both read grids have
// them: what "this drive got slower" means to a reader.
void add_latency_items(const SavedResult& older, const SavedResult& newer, std::vector<BaselineItem>& items) {
  const SavedGrid *a = grid_named(older, "read"), *b = grid_named(newer, "read");
  if (a == nullptr || b == nullptr) return;
  if (a->queue_depth != b->queue_depth) {
    BaselineItem item = item_of("aligned read latencies", fmt::format("queue depth {}", a->queue_depth),
                                fmt::format("queue depth {}", b->queue_depth));
    item.not_compared = "the read grids ran at different queue depths";
    items.push_back(item);
    return;
  }
  for (const uint64_t size : {4096ull, 16384ull, 131072ull}) {
    const auto sa = cell_stats(*a, size, 0), sb = cell_stats(*b, size, 0);
    if (sa && sb) items.push_back(latency_item(size, *sa, *sb));
  }
}

// The drive's serial: the first a run gives ("" when none does).
std::string serial_of(const std::vector<SavedResult>& runs) {
  for (const SavedResult& r : runs) {
    if (!r.serial.empty()) return r.serial;
  }
  return "";
}

// One drive: one model, and one serial among the runs that give one (a run
// whose drive gave none is taken for the same drive).
void refuse_other_drives(const std::vector<SavedResult>& runs) {
  const SavedResult& first = runs.front();
  const std::string serial = serial_of(runs);
  for (const SavedResult& r : runs) {
    const bool other_serial = !r.serial.empty() && r.serial != serial;
    if (other_serial || r.model != first.model) {
      throw Error(ErrorCategory::usage,
                  fmt::format("compare --baseline compares runs of one drive: {} is serial '{}' model '{}', {} is "
                              "serial '{}' model '{}' (compare without --baseline compares drives)",
                              first.file, serial, first.model, r.file, r.serial, r.model));
    }
  }
}

}  // namespace

BaselineStep compare_runs(const SavedResult& older, const SavedResult& newer) {
  BaselineStep step{older.file, newer.file, older.started_at, newer.started_at, {}};
  auto& items = step.items;
  items.push_back(text_item("firmware", older.firmware, newer.firmware));
  items.push_back(text_item("ssdprobe", older.tool_version, newer.tool_version));
  items.push_back(unit_item("read page", older.read_page, newer.read_page));
  items.push_back(unit_item("write unit", older.write_unit, newer.write_unit));
  items.push_back(unit_item("erase block", older.erase_block, newer.erase_block));
  items.push_back(unit_item("write unit in the SLC cache", older.write_unit_in_cache, newer.write_unit_in_cache));
  items.push_back(kernel_item("kernel logical_block_size", older.logical_block, newer.logical_block));
  items.push_back(kernel_item("kernel physical_block_size", older.physical_block, newer.physical_block));
  items.push_back(kernel_item("kernel minimum_io_size", older.minimum_io, newer.minimum_io));
  items.push_back(kernel_item("kernel optimal_io_size", older.optimal_io, newer.optimal_io));
  items.push_back(mismatch_item(older, newer));
  items.push_back(findings_item(older, newer));
  items.push_back(wear_item(older, newer));
  add_latency_items(older, newer, items);
  return step;
}

BaselineComparison compare_baseline(std::vector<SavedResult> runs) {
  if (runs.size() < 2) {
    throw Error(ErrorCategory::usage, fmt::format("compare --baseline needs two or more runs of one drive (got {})",
                                                  runs.size()));
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const SavedResult& a, const SavedResult& b) { return a.started_at < b.started_at; });
  refuse_other_drives(runs);
  BaselineComparison out{serial_of(runs), runs.front().model, {}, {}};
  for (const SavedResult& r : runs) out.files.push_back(r.file);
  for (size_t i = 1; i < runs.size(); ++i) out.steps.push_back(compare_runs(runs[i - 1], runs[i]));
  return out;
}

}  // namespace ssdprobe
