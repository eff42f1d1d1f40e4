// The JSON renderings of a comparison and of the quirk table (shapes in
// docs/compare.md). Written the way the result document is (report layer):
// an ordered_json tree, so keys keep the documented order; latencies rounded
// to three decimals with report's rounded(); file names and other document
// text made valid UTF-8 with with_valid_utf8 (invalid bytes as \xHH) before
// dump(), which would throw on them.
#include <nlohmann/json.hpp>

#include "compare/compare_render.h"
#include "report/json_values.h"
#include "report/utf8.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

json tally_json(const SizeTally& tally) {
  json values = json::array();
  for (const auto& e : tally.entries) values.push_back({{"bytes", json_or_null(e.bytes)}, {"documents", e.count}});
  return {{"documents", tally.total}, {"values", std::move(values)}};
}

// A tally over runs: [{bytes, runs}], most runs first (the sizes found; how
// far the runs that ruled a unit out could see, null where one does not say).
json runs_json(const SizeTally& tally) {
  json out = json::array();
  for (const auto& e : tally.entries) out.push_back({{"bytes", json_or_null(e.bytes)}, {"runs", e.count}});
  return out;
}

json unit_json(const UnitAgreement& unit) {
  return {{"agreed_bytes", json_or_null(unit.agreed())},
          {"timed_runs", unit.runs},
          {"measured_runs", unit.measured()},
          {"ruled_out", unit.ruled_out},
          {"ruled_out_up_to", runs_json(unit.ruled_out_up_to)},
          {"not_determined", unit.not_determined},
          {"not_measured", unit.not_measured},
          {"found", runs_json(unit.found)}};
}

json key_cell_json(const KeyCell& k) {
  // size 0: the cell is not defined (no agreed unit to place it by).
  const json size = k.size ? json(k.size) : json(nullptr);
  const json offset = k.size ? json(k.offset) : json(nullptr);
  // A spread over no runs has no latencies (and NaN would dump as null anyway).
  auto latency = [&](double us) { return k.spread.runs ? json(rounded(us)) : json(nullptr); };
  return {{"key", k.key},
          {"grid", k.grid},
          {"size_bytes", size},
          {"offset_bytes", offset},
          {"description", k.description},
          {"runs", k.spread.runs},
          {"median_us", latency(k.spread.median_us)},
          {"p10_us", latency(k.spread.p10_us)},
          {"p90_us", latency(k.spread.p90_us)}};
}

json group_json(const FleetGroup& g) {
  json firmware = json::object();
  for (const auto& [name, tally] : g.firmware_geometry) firmware[name] = tally_json(tally);
  json mismatches = json::array();
  for (const auto& [field, count] : g.mismatches) mismatches.push_back({{"field", field}, {"documents", count}});
  json key_cells = json::array();
  for (const KeyCell& k : g.key_cells) key_cells.push_back(key_cell_json(k));
  json partial = json::array();
  for (const auto& [file, stopped] : g.partial_runs) partial.push_back({{"file", file}, {"stopped", stopped}});
  return {{"model", g.model},
          {"firmware", g.firmware},
          {"capacity_bytes", g.size_bytes},
          {"grouped_by", grouped_by_name(g.grouped_by)},
          {"identity", g.identity.empty() ? json(nullptr) : json(g.identity)},
          {"documents", g.documents},
          {"timed_runs", g.timed_runs},
          {"partial_runs", g.partial_count()},
          {"info_documents", g.info_documents},
          {"drives", g.drives},
          {"newest_schema_minor", g.newest_schema_minor},
          {"reported",
           {{"logical_block_size", tally_json(g.logical_block)},
            {"physical_block_size", tally_json(g.physical_block)},
            {"minimum_io_size", tally_json(g.minimum_io)},
            {"optimal_io_size", tally_json(g.optimal_io)},
            {"firmware", std::move(firmware)}}},
          {"detected",
           {{"read_page", unit_json(g.read_page)},
            {"write_unit", unit_json(g.write_unit)},
            {"erase_block", unit_json(g.erase_block)}}},
          {"mismatches", std::move(mismatches)},
          {"partition_alignment", tally_json(g.partition_alignment)},
          {"key_cells", std::move(key_cells)},
          {"partial", std::move(partial)},
          {"representative", g.representative.empty() ? json(nullptr) : json(g.representative)},
          {"representative_partial", g.representative_partial}};
}

json coverage_json(const FleetCoverage& c) {
  json versions = json::array();
  for (const auto& [version, count] : c.versions) {
    versions.push_back({{"version", version.empty() ? json(nullptr) : json(version)}, {"documents", count}});
  }
  auto time = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
  return {{"document_versions", std::move(versions)},
          {"hosts", c.hosts},
          {"documents_without_hostname", c.without_hostname},
          {"timed_runs", c.timed_runs},
          {"partial_runs", c.partial_runs},
          {"info_documents", c.info_documents},
          {"first_started_at", time(c.first_started_at)},
          {"last_started_at", time(c.last_started_at)}};
}

json quirk_json(const QuirkRow& r) {
  json firmware = json::object();
  for (const auto& [name, bytes] : r.firmware_geometry) firmware[name] = bytes;
  return {{"model", r.model},
          {"firmware", r.firmware},
          {"capacity_bytes", r.size_bytes},
          {"drives", r.drives},
          {"runs", r.runs},
          {"reported",
           {{"logical_block_size", json_or_null(r.logical_block)},
            {"physical_block_size", json_or_null(r.physical_block)},
            {"minimum_io_size", json_or_null(r.minimum_io)},
            {"optimal_io_size", json_or_null(r.optimal_io)},
            {"firmware", std::move(firmware)}}},
          {"measured",
           {{"read_page_bytes", json_or_null(r.read_page)},
            {"write_unit_bytes", json_or_null(r.write_unit)},
            {"erase_block_bytes", json_or_null(r.erase_block)}}},
          {"use",
           {{"physical_block_bytes", json_or_null(r.physical_block_bytes)},
            {"optimal_io_bytes", json_or_null(r.optimal_io_bytes)},
            {"ashift", json_or_null(r.ashift)}}},
          {"reasons", r.reasons}};
}

std::string document_text(const json& document) { return with_valid_utf8(document).dump(2) + "\n"; }

}  // namespace

std::string render_json(const FleetComparison& c) {
  json groups = json::array();
  for (const FleetGroup& g : c.groups) groups.push_back(group_json(g));
  return document_text({{"schema", "ssdprobe-compare/1"},
                        {"made_at", c.coverage.made_at.empty() ? json(nullptr) : json(c.coverage.made_at)},
                        {"ssdprobe_version", c.coverage.compared_by},
                        {"documents", c.documents},
                        {"coverage", coverage_json(c.coverage)},
                        {"agreement_percent", kAgreementPercent},
                        {"skipped", c.skipped},
                        {"groups", std::move(groups)}});
}

std::string render_quirks_json(const std::vector<QuirkRow>& rows) {
  json quirks = json::array();
  for (const QuirkRow& r : rows) quirks.push_back(quirk_json(r));
  return document_text({{"schema", "ssdprobe-quirks/1"},
                        {"rule", quirk_rule_text()},
                        {"min_runs", kQuirkMinRuns},
                        {"agreement_percent", kAgreementPercent},
                        {"quirks", std::move(quirks)}});
}

}  // namespace ssdprobe
