#include "compare/disk_rows.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <iterator>

#include "compare/fleet_files.h"
#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "report/json_values.h"
#include "report/unit_answer.h"
#include "report/utf8.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

// The kernel's 0 (optimal_io_size: "none given") as lsblk prints it.
std::string size_or_dash(const std::optional<uint64_t>& v) {
  if (!v) return "-";
  return *v == 0 ? std::string("0") : format_size(*v);
}

// "43M", "128K": a size in a table cell, rounded up to whole KiB/MiB/GiB.
std::string compact_size(uint64_t bytes) {
  constexpr const char* kSuffixes[] = {"K", "M", "G", "T"};
  double value = static_cast<double>(bytes) / 1024.0;
  size_t i = 0;
  while (value >= 1024.0 && i + 1 < std::size(kSuffixes)) {
    value /= 1024.0;
    ++i;
  }
  return fmt::format("{:.0f}{}", std::ceil(value), kSuffixes[i]);
}

// A unit of the last run in a few characters: its size, "none<=N" (ruled
// out up to N, the reach of the probe: not "none at all"), "n/d" (not
// determined), "-" (not measured, or no run).
std::string unit_cell(const std::optional<LastRun>& run, const SavedUnit LastRun::*unit) {
  if (!run || (*run.*unit).state.empty()) return "-";
  const SavedUnit& u = *run.*unit;
  switch (unit_answer(u.state)) {  // report/unit_answer.h: an unknown state reads as not determined
    case UnitAnswer::found: return u.bytes ? format_size(*u.bytes) : std::string("found");
    case UnitAnswer::ruled_out:
      return u.searched_up_to_bytes ? "none<=" + compact_size(*u.searched_up_to_bytes) : std::string("none");
    case UnitAnswer::not_determined: return "n/d";
    case UnitAnswer::not_measured: return "-";
  }
  return "n/d";
}

std::string finding_cell(const DiskRow& row) {
  if (!row.error.empty()) return "cannot tell: " + row.error;
  if (row.worst_severity.empty()) return "none";
  return fmt::format("{}: {}", row.worst_severity, row.worst_finding);
}

constexpr const char* kRowFormat = "{:<14} {:<24} {:<7} {:>9} {:>6} {:>6} {:>6} {:>7}  {:>9} {:>9} {:>9}  {}\n";

// The model in 24 columns: cut on a character, before escaping, so no
// UTF-8 sequence or \xHH escape is split.
std::string model_cell(const std::string& model) {
  if (model.empty()) return "-";
  std::string cut = model;
  if (cut.size() > 24) {
    size_t end = 24;
    while (end > 0 && (static_cast<unsigned char>(cut[end]) & 0xC0) == 0x80) --end;
    cut.resize(end);
  }
  return printable(cut);
}

std::string row_text(const DiskRow& r) {
  return fmt::format(fmt::runtime(kRowFormat), printable(r.device), model_cell(r.model),
                     printable(r.transport), r.size_bytes ? format_size(r.size_bytes) : "-",
                     size_or_dash(r.logical_block), size_or_dash(r.physical_block), size_or_dash(r.minimum_io),
                     size_or_dash(r.optimal_io), unit_cell(r.last_run, &LastRun::read_page),
                     unit_cell(r.last_run, &LastRun::write_unit), unit_cell(r.last_run, &LastRun::erase_block),
                     printable(finding_cell(r)));
}

json unit_json(const SavedUnit& u) {
  return {{"state", u.state}, {"bytes", json_or_null(u.bytes)},
          {"searched_up_to_bytes", json_or_null(u.searched_up_to_bytes)}};
}

json last_run_json(const std::optional<LastRun>& run) {
  if (!run) return nullptr;
  return {{"file", run->file}, {"started_at", run->started_at}, {"read_page", unit_json(run->read_page)},
          {"write_unit", unit_json(run->write_unit)}, {"erase_block", unit_json(run->erase_block)}};
}

json row_json(const DiskRow& r) {
  json j = {{"device", r.device}, {"model", r.model}, {"serial", r.serial}, {"transport", r.transport},
            {"size_bytes", r.size_bytes}, {"logical_block_size", json_or_null(r.logical_block)},
            {"physical_block_size", json_or_null(r.physical_block)}, {"minimum_io_size", json_or_null(r.minimum_io)},
            {"optimal_io_size", json_or_null(r.optimal_io)}};
  j["last_run"] = last_run_json(r.last_run);
  j["worst_finding"] = r.worst_severity.empty() ? json(nullptr)
                                                : json{{"severity", r.worst_severity}, {"text", r.worst_finding}};
  j["error"] = text_or_null(r.error);
  return j;
}

}  // namespace

std::map<DriveKey, LastRun> latest_runs_by_drive(const std::string& dir) {
  std::map<DriveKey, LastRun> latest;
  if (dir.empty()) return latest;
  const FleetFiles files = find_fleet_files({dir});
  if (!files.warnings.empty() && files.documents.empty()) {
    throw Error(ErrorCategory::usage, fmt::format("--results {}: {}", dir, files.warnings.front()));
  }
  for (const std::string& w : files.warnings) print_warning(w);
  for (const std::string& file : files.documents) {
    try {
      const SavedResult r = read_saved_result(file, GridDetail::none);
      if (!r.measured || r.serial.empty()) continue;
      const DriveKey key{r.model, r.serial};
      const auto at = latest.find(key);
      if (at != latest.end() && at->second.started_at >= r.started_at) continue;
      latest[key] = LastRun{r.file, r.started_at, r.read_page, r.write_unit, r.erase_block};
    } catch (const Error& e) {
      print_warning(fmt::format("--results: {}: skipped", e.what()));
    }
  }
  return latest;
}

std::string render_disk_rows_text(const std::vector<DiskRow>& rows) {
  std::string out = fmt::format(fmt::runtime(kRowFormat), "DEVICE", "MODEL", "TRAN", "SIZE", "LOG", "PHY", "MIN-IO",
                                "OPT-IO", "PAGE", "W-UNIT", "ERASE", "WORST FINDING");
  for (const DiskRow& r : rows) out += row_text(r);
  return out;
}

std::string render_disk_rows_json(const std::vector<DiskRow>& rows) {
  json out = json::array();
  for (const DiskRow& r : rows) out.push_back(row_json(r));
  return with_valid_utf8(out).dump(2) + "\n";
}

}  // namespace ssdprobe
