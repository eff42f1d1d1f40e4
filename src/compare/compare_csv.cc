// The CSV renderings: one row per group (or per quirk), a header line first,
// every field through csv_field (RFC 4180 quoting), every text cell through
// text_cell first (no formula for a spreadsheet).
#include <fmt/format.h>

#include <string_view>

#include "compare/compare_render.h"
#include "compare/text_escape.h"

namespace ssdprobe {
namespace {

// A cell of text: a document's strings (model, firmware, serial, paths,
// firmware field names) and lists built from them. A spreadsheet opening the
// file evaluates a cell that starts with = + - or @ (or a TAB or CR before
// one) as a formula, so such a text gets a leading single quote, OWASP's
// neutralisation: spreadsheets show the rest as text. Numbers ssdprobe
// formats (counts, bytes, latencies, a negative one too) are not text cells
// and stay numbers.
std::string text_cell(std::string_view text) {
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
  return formula ? "'" + std::string(text) : std::string(text);
}

std::string number(std::optional<uint64_t> v) { return v ? std::to_string(*v) : std::string(); }
std::string latency(double v, bool present) { return present ? fmt::format("{:.3f}", v) : std::string(); }

// "512" or "512:10;4096:2" (value:documents, most frequent first; null as "null").
std::string tally_field(const SizeTally& t) {
  if (t.entries.size() == 1) return t.entries[0].bytes ? std::to_string(*t.entries[0].bytes) : "null";
  std::string out;
  for (const auto& e : t.entries) {
    out += fmt::format("{}{}:{}", out.empty() ? "" : ";", e.bytes ? std::to_string(*e.bytes) : "null", e.count);
  }
  return out;
}

std::string line(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  return out + "\r\n";
}

// The key cells, in column order.
const char* const kKeys[] = {"read_aligned", "read_straddle", "write_sub_unit", "write_unit"};

std::vector<std::string> group_header() {
  std::vector<std::string> header{"model", "firmware", "capacity_bytes", "documents", "timed_runs", "info_documents",
                                  "drives", "logical_block_size", "physical_block_size", "minimum_io_size",
                                  "optimal_io_size", "firmware_geometry"};
  for (const char* unit : {"read_page", "write_unit", "erase_block"}) {
    for (const char* column : {"agreed_bytes", "top_bytes", "top_runs", "measured_runs", "not_determined",
                               "not_measured", "ruled_out"}) {
      header.push_back(fmt::format("{}_{}", unit, column));
    }
  }
  header.insert(header.end(), {"partition_alignment", "mismatches"});
  for (const char* key : kKeys) {
    for (const char* column : {"size_bytes", "offset_bytes", "runs", "median_us", "p10_us", "p90_us"}) {
      header.push_back(fmt::format("{}_{}", key, column));
    }
  }
  header.insert(header.end(), {"representative", "grouped_by", "identity"});
  // Added later: at the end, so the columns before keep their places.
  header.insert(header.end(), {"partial_runs", "partial", "representative_partial"});
  for (const char* unit : {"read_page", "write_unit", "erase_block"}) {
    header.push_back(fmt::format("{}_ruled_out_up_to", unit));
  }
  return header;
}

// "nvme.npwg_bytes=16384;..." (each field's tally as tally_field writes it).
std::string geometry_field(const FleetGroup& g) {
  std::string geometry;
  for (const auto& [name, tally] : g.firmware_geometry) {
    geometry += fmt::format("{}{}={}", geometry.empty() ? "" : ";", name, tally_field(tally));
  }
  return geometry;
}

// "physical_block_size:3;minimum_io_size:1" (field:documents).
std::string mismatches_field(const FleetGroup& g) {
  std::string mismatches;
  for (const auto& [field, count] : g.mismatches) {
    mismatches += fmt::format("{}{}:{}", mismatches.empty() ? "" : ";", field, count);
  }
  return mismatches;
}

// "FILE: run stopped in the read_grid phase (interrupted by signal 2);..." (each partial run).
std::string partial_field(const FleetGroup& g) {
  std::string partial;
  for (const auto& [file, stopped] : g.partial_runs) {
    partial += fmt::format("{}{}: {}", partial.empty() ? "" : ";", file, stopped);
  }
  return partial;
}

// The six columns of key cell `key`; empty where the group has no such cell
// or no run measured it.
void add_key_cell_fields(std::vector<std::string>& f, const FleetGroup& g, const char* key) {
  const KeyCell* cell = nullptr;
  for (const KeyCell& k : g.key_cells) {
    if (k.key == key) cell = &k;
  }
  const bool has = cell && cell->spread.runs > 0;
  f.insert(f.end(), {cell && cell->size ? std::to_string(cell->size) : "",
                     cell && cell->size ? std::to_string(cell->offset) : "",
                     std::to_string(cell ? cell->spread.runs : 0), latency(has ? cell->spread.median_us : 0, has),
                     latency(has ? cell->spread.p10_us : 0, has), latency(has ? cell->spread.p90_us : 0, has)});
}

std::vector<std::string> group_fields(const FleetGroup& g) {
  std::vector<std::string> f{text_cell(g.model),
                             text_cell(g.firmware),
                             std::to_string(g.size_bytes),
                             std::to_string(g.documents),
                             std::to_string(g.timed_runs),
                             std::to_string(g.info_documents),
                             std::to_string(g.drives),
                             tally_field(g.logical_block),
                             tally_field(g.physical_block),
                             tally_field(g.minimum_io),
                             tally_field(g.optimal_io)};
  f.push_back(text_cell(geometry_field(g)));
  for (const UnitAgreement* u : {&g.read_page, &g.write_unit, &g.erase_block}) {
    f.insert(f.end(), {number(u->agreed()), number(u->top_bytes()), std::to_string(u->top_count()),
                       std::to_string(u->measured()), std::to_string(u->not_determined),
                       std::to_string(u->not_measured), std::to_string(u->ruled_out)});
  }
  f.push_back(tally_field(g.partition_alignment));
  f.push_back(text_cell(mismatches_field(g)));
  for (const char* key : kKeys) add_key_cell_fields(f, g, key);
  f.insert(f.end(), {text_cell(g.representative), grouped_by_name(g.grouped_by), text_cell(g.identity)});
  f.insert(f.end(), {std::to_string(g.partial_count()), text_cell(partial_field(g)),
                     g.representative_partial ? "true" : "false"});
  for (const UnitAgreement* u : {&g.read_page, &g.write_unit, &g.erase_block}) {
    f.push_back(tally_field(u->ruled_out_up_to));
  }
  return f;
}

}  // namespace

std::string render_csv(const FleetComparison& c) {
  std::string out = line(group_header());
  for (const FleetGroup& g : c.groups) out += line(group_fields(g));
  return out;
}

std::string render_quirks_csv(const std::vector<QuirkRow>& rows) {
  std::string out = line({"model", "firmware", "capacity_bytes", "drives", "runs", "logical_block_size",
                          "physical_block_size", "minimum_io_size", "optimal_io_size", "firmware_geometry",
                          "read_page_bytes", "write_unit_bytes", "erase_block_bytes", "use_physical_block_bytes",
                          "use_ashift", "use_optimal_io_bytes", "reasons"});
  for (const QuirkRow& r : rows) {
    std::string geometry, reasons;
    for (const auto& [name, bytes] : r.firmware_geometry) {
      geometry += fmt::format("{}{}={}", geometry.empty() ? "" : ";", name, bytes);
    }
    for (const std::string& reason : r.reasons) reasons += (reasons.empty() ? "" : "; ") + reason;
    out += line({text_cell(r.model), text_cell(r.firmware), std::to_string(r.size_bytes), std::to_string(r.drives),
                 std::to_string(r.runs), number(r.logical_block), number(r.physical_block), number(r.minimum_io),
                 number(r.optimal_io), text_cell(geometry), number(r.read_page), number(r.write_unit),
                 number(r.erase_block),
                 number(r.physical_block_bytes), r.ashift ? std::to_string(*r.ashift) : "",
                 number(r.optimal_io_bytes), text_cell(reasons)});
  }
  return out;
}

}  // namespace ssdprobe
