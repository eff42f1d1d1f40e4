#include "compare/ndjson_rows.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/output.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

// Every row has every column: a warehouse table (and `jq keys`) sees one
// shape. So the columns come from these fixed lists, not from what a
// document happens to hold; a unit a newer writer adds is not a column
// until row_schema says so.
constexpr std::array kReportedFields = {
    "logical_block_size", "physical_block_size", "minimum_io_size", "optimal_io_size",
    "alignment_offset",   "discard_granularity", "discard_max_bytes", "max_sectors_kb",
    "dma_alignment",      "rotational",          "write_cache",       "partition_start_bytes",
    "filesystem_block_size", "kernel_version"};
constexpr std::array kUnits = {"read_page",  "write_unit", "write_stripe",
                               "erase_block", "slc_cache", "slc_cache_write_unit"};
constexpr std::array kParallelGroups = {"parallelism", "write_parallelism"};
constexpr std::array kParallelValues = {"queue_depth_knee", "plateau_iops", "parallel_units", "interleave_bytes"};

// Document text: null when empty (the document's null), invalid UTF-8 bytes
// as \xHH (nlohmann-json's dump would throw on them).
json text(std::string_view s) { return s.empty() ? json(nullptr) : json(escape_invalid_utf8(s)); }
json number(double d) { return std::isfinite(d) ? json(d) : json(nullptr); }
template <typename T>
json maybe(const std::optional<T>& v) { return v ? json(*v) : json(nullptr); }

template <typename Value>
const Value* find(const std::vector<std::pair<std::string, Value>>& list, std::string_view name) {
  for (const auto& [key, value] : list) {
    if (key == name) return &value;
  }
  return nullptr;
}

json parsed(const std::string* text) {
  if (text == nullptr) return nullptr;
  json value = json::parse(*text, nullptr, false);
  return value.is_discarded() ? json(nullptr) : value;
}

void add_identity(json& row, const SavedResult& d) {
  row["row_schema"] = kRowSchema;
  row["file"] = text(d.file);
  row["host"] = text(d.hostname);
  row["device"] = text(d.path);
  row["disk"] = text(d.row.disk);
  row["kind"] = text(d.kind);
  row["transport"] = text(d.transport);
  row["model"] = text(d.model);
  row["firmware"] = text(d.firmware);
  row["serial"] = text(d.serial);
  row["wwid"] = text(d.wwid);
  row["capacity_bytes"] = d.size_bytes;
  row["tool_version"] = text(d.tool_version);
  row["schema_minor"] = d.schema_minor;
  row["started_at"] = text(d.started_at);
  row["duration_s"] = number(d.duration_s);
  row["timed"] = d.measured;
  row["write"] = d.write;
  // A run stopped early (interrupted, or by an error): what did not finish
  // is not_measured in it, so a warehouse must be able to leave it out.
  row["partial"] = !d.stopped.empty();
  row["stopped"] = text(d.stopped);
}

// The document's own JSON of each sysfs value (numbers, booleans, the
// write_cache and kernel_version strings), so no value is re-typed here.
void add_reported(json& row, const SavedResult& d) {
  for (const char* name : kReportedFields) {
    const std::string* value = find(d.row.reported_json, name);
    row[std::string("reported_") + name] = parsed(value);
  }
}

// <unit>_bytes, _state, _confidence, _searched_up_to_bytes: null when the
// document has no such unit (an older writer); the state in the document's
// own words; how far the probe could see only when it ruled the unit out.
void add_units(json& row, const SavedResult& d) {
  for (const char* name : kUnits) {
    const SavedUnit* unit = find(d.row.units, name);
    const std::string stem(name);
    row[stem + "_bytes"] = unit && unit->state == "found" ? maybe(unit->bytes) : json(nullptr);
    row[stem + "_state"] = unit ? text(unit->state) : json(nullptr);
    row[stem + "_confidence"] = unit ? number(unit->confidence) : json(nullptr);
    row[stem + "_searched_up_to_bytes"] =
        unit && unit->state == "absent" ? maybe(unit->searched_up_to_bytes) : json(nullptr);
  }
  row["partition_alignment_bytes"] = maybe(d.partition_alignment);
}

// Depths, unit counts and strides are whole numbers, read as doubles (the
// values share one field): written as integers, as the document writes them.
json whole_or_number(const std::optional<double>& v) {
  if (!v) return nullptr;
  if (std::isfinite(*v) && *v == std::floor(*v) && std::fabs(*v) < 9.0e15) return static_cast<int64_t>(*v);
  return number(*v);
}

void add_parallelism(json& row, const SavedResult& d) {
  for (const char* group : kParallelGroups) {
    for (const char* name : kParallelValues) {
      const std::string stem = std::string(group) + "_" + name;
      const SavedParallelValue* value = find(d.row.parallel_values, std::string(group) + "." + name);
      row[stem] = value ? whole_or_number(value->value) : json(nullptr);
      row[stem + "_state"] = value ? text(value->state) : json(nullptr);
      row[stem + "_confidence"] = value ? number(value->confidence) : json(nullptr);
    }
  }
}

// Field lists are comma-separated strings, not arrays: a flat scalar that
// SQL can search with instr() or LIKE, and no field name holds a comma
// (sysfs names, partition[N].start, lvm.lv[NAME].start: LVM names cannot).
void append_field(std::string& list, const std::string& field) {
  if (("," + list + ",").find("," + field + ",") != std::string::npos) return;
  if (!list.empty()) list += ',';
  list += field;
}

void add_mismatches(json& row, const SavedResult& d) {
  int info = 0, warning = 0, error = 0;
  std::string fields, warning_fields;
  for (const SavedMismatch& m : d.mismatches) {
    const bool serious = m.severity == "warning" || m.severity == "error";
    info += m.severity == "info";
    warning += m.severity == "warning";
    error += m.severity == "error";
    append_field(fields, m.field);
    if (serious) append_field(warning_fields, m.field);
  }
  row["mismatches"] = d.mismatches.size();
  row["mismatches_info"] = info;
  row["mismatches_warning"] = warning;
  row["mismatches_error"] = error;
  row["mismatch_fields"] = fields;
  row["mismatch_warning_fields"] = warning_fields;
}

// A partition target's own start is checked as the mismatch
// `partition_start`; the audit checks every partition of the disk.
std::optional<bool> partition_misaligned(const SavedResult& d) {
  for (const SavedMismatch& m : d.mismatches) {
    if (m.field == "partition_start" && (m.severity == "warning" || m.severity == "error")) return true;
  }
  const SavedAuditCounts& a = d.row.audit;
  if (!a.available) return std::nullopt;  // no layout was read: not known
  return a.misaligned_partitions > 0;
}

void add_audit(json& row, const SavedResult& d) {
  const SavedAuditCounts& a = d.row.audit;
  row["audit_available"] = a.present ? json(a.available) : json(nullptr);
  row["audit_checks"] = a.checks;
  row["audit_not_ok"] = a.not_ok;
  row["audit_errors"] = a.errors;
  row["audit_warnings"] = a.warnings;
  row["audit_infos"] = a.infos;
  row["audit_misaligned_partitions"] = a.misaligned_partitions;
  row["partition_misaligned"] = maybe(partition_misaligned(d));
  const bool cost = a.worst_ratio.has_value();
  row["worst_cost_ratio"] = maybe(a.worst_ratio);
  row["worst_cost_ratio_low"] = maybe(a.worst_ratio_low);
  row["worst_cost_ratio_high"] = maybe(a.worst_ratio_high);
  row["worst_cost_significant"] = cost ? json(a.worst_significant) : json(nullptr);
  row["worst_cost_field"] = cost ? text(a.worst_field) : json(nullptr);
  row["worst_cost_op"] = cost ? text(a.worst_op) : json(nullptr);
  row["worst_cost_request_bytes"] = cost ? json(a.worst_request_bytes) : json(nullptr);
}

}  // namespace

std::string ndjson_row(const SavedResult& document) {
  json row = json::object();
  add_identity(row, document);
  add_reported(row, document);
  add_units(row, document);
  add_parallelism(row, document);
  add_mismatches(row, document);
  add_audit(row, document);
  return row.dump() + "\n";
}

}  // namespace ssdprobe
