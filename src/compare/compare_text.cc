// The text rendering: a summary table, then one block per group.
#include <fmt/format.h>

#include <algorithm>

#include "compare/agreement_text.h"
#include "compare/compare_render.h"
#include "compare/coverage_text.h"
#include "core/output.h"
#include "core/plural.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

// Columns padded to their widest cell (model strings vary a lot); UTF-8
// safe enough for the ASCII this table holds after printable().
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string alignment_text(const FleetGroup& g) {
  const SizeTally& t = g.partition_alignment;
  if (!t.top() || !t.top()->bytes) return "-";
  return fmt::format("{} in {}/{} runs", format_size(*t.top()->bytes), t.top()->count, t.total);
}

// The header: what was compared, when, by which version, from which hosts.
std::string header(const FleetComparison& c) {
  std::string out = fmt::format("ssdprobe compare: {} in {}{}\n", counted(c.documents, "document"),
                                counted(c.groups.size(), "group"),
                                c.skipped.empty() ? "" : fmt::format(", {} skipped", counted(c.skipped.size(), "file")));
  for (const CoverageLine& line : coverage_lines(c.coverage)) {
    out += fmt::format("  {:<12}{}\n", line.label, printable(line.value));
  }
  return out + "\n";
}

}  // namespace

std::string render_text(const FleetComparison& c) {
  std::string out = header(c);
  std::vector<std::vector<std::string>> rows{{"MODEL", "FIRMWARE", "CAPACITY", "DRIVES", "RUNS", "PARTIAL", "INFO",
                                              "READ_PAGE", "WRITE_UNIT", "ERASE_BLOCK", "ALIGN",
                                              "REPORTED / MEASURED"}};
  for (const FleetGroup& g : c.groups) {
    rows.push_back({printable(group_name(g)), printable(g.firmware.empty() ? "-" : g.firmware),
                    format_size(g.size_bytes), std::to_string(g.drives), std::to_string(g.timed_runs),
                    partial_short(g), std::to_string(g.info_documents), unit_short(g.read_page),
                    unit_short(g.write_unit), unit_short(g.erase_block), alignment_short(g),
                    reported_vs_measured_text(g)});
  }
  out += table(rows);
  out += "(a unit with '?' is the most frequent size but misses the agreement rule: found in fewer than 80 % of the "
         "runs that measured it; PARTIAL: timed runs that stopped early (interrupted, or stopped by an error), "
         "\"(all)\" when no run of the group is complete; ALIGN \"1 MiB in 2/3\": the runs disagree; REPORTED / "
         "MEASURED: the kernel's minimum_io_size beside the agreed read page and write unit, optimal_io_size beside "
         "the agreed erase block)\n";

  for (const FleetGroup& g : c.groups) {
    out += fmt::format("\n== {}, firmware {}, {}\n", printable(group_name(g)),
                       printable(g.firmware.empty() ? "(none)" : g.firmware), format_size(g.size_bytes));
    out += fmt::format("  documents     {} ({}, {} info) from {}\n", g.documents, counted(g.timed_runs, "timed run"),
                       g.info_documents, counted(g.drives, "drive"));
    out += fmt::format("  partial       {}\n", printable(partial_text(g)));
    out += fmt::format("  reported      logical {}, physical {}, minimum_io {}, optimal_io {}\n",
                       tally_text(g.logical_block), tally_text(g.physical_block), tally_text(g.minimum_io),
                       tally_text(g.optimal_io));
    for (const auto& [name, tally] : g.firmware_geometry) {
      out += fmt::format("  firmware      {} {}\n", name, tally_text(tally));
    }
    out += fmt::format("  read page     {}\n", unit_text(g.read_page));
    out += fmt::format("  write unit    {}\n", unit_text(g.write_unit));
    out += fmt::format("  erase block   {}\n", unit_text(g.erase_block));
    out += fmt::format("  alignment     {}\n", alignment_text(g));
    std::string mismatches;
    for (const auto& [field, count] : g.mismatches) {
      mismatches += fmt::format("{}{} in {}", mismatches.empty() ? "" : ", ", printable(field), count);
    }
    out += fmt::format("  mismatches    {}\n", mismatches.empty() ? "none" : mismatches);
    out += "  key cells     (median over runs, p10-p90 over runs)\n";
    for (const KeyCell& k : g.key_cells) {
      out += fmt::format("    {:<15} {}: {}\n", k.key, k.description, spread_text(k.spread));
    }
    if (!g.representative.empty()) {
      const std::string note = representative_note(g);
      out += fmt::format("  representative run  {}{}\n", printable(g.representative),
                         note.empty() ? "" : " (" + note + ")");
    }
  }
  return out;
}

std::string render_quirks_text(const std::vector<QuirkRow>& rows) {
  std::vector<std::vector<std::string>> table_rows{{"MODEL", "FIRMWARE", "CAPACITY", "DRIVES", "RUNS", "REPORTED_PHYS",
                                                    "READ_PAGE", "WRITE_UNIT", "ERASE_BLOCK", "USE_PHYS", "ASHIFT",
                                                    "USE_OPT_IO"}};
  auto size = [](std::optional<uint64_t> v) { return v ? format_size(*v) : std::string("-"); };
  for (const QuirkRow& r : rows) {
    table_rows.push_back({printable(r.model), printable(r.firmware), format_size(r.size_bytes),
                          std::to_string(r.drives), std::to_string(r.runs), size(r.physical_block), size(r.read_page),
                          size(r.write_unit), size(r.erase_block), size(r.physical_block_bytes),
                          r.ashift ? std::to_string(*r.ashift) : "-", size(r.optimal_io_bytes)});
  }
  std::string out = table(table_rows);
  out += quirk_rule_text() + "\n";
  return out;
}

std::string quirk_rule_text() {
  return fmt::format("Rule: a unit is listed only when at least {} timed runs of the model/firmware/capacity measured it "
                     "and at least {} % of them found the same size; a drive is listed only when such a unit shows a "
                     "reported size too small (physical_block_size or minimum_io_size below the larger of read page "
                     "and write unit, optimal_io_size not a multiple of the erase block).",
                     kQuirkMinRuns, kAgreementPercent);
}

}  // namespace ssdprobe
