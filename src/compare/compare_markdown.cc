// The Markdown rendering: a summary table and one section per group, every
// document string through markdown_text.
#include <fmt/format.h>

#include "compare/agreement_text.h"
#include "compare/compare_render.h"
#include "compare/coverage_text.h"
#include "compare/text_escape.h"
#include "core/plural.h"
#include "core/units.h"

namespace ssdprobe {

std::string render_markdown(const FleetComparison& c) {
  std::string out = fmt::format("# ssdprobe compare\n\n{} in {}{}.\n\n", counted(c.documents, "document"),
                                counted(c.groups.size(), "group"),
                                c.skipped.empty() ? "" : fmt::format(", {} skipped", counted(c.skipped.size(), "file")));
  for (const CoverageLine& line : coverage_lines(c.coverage)) {
    out += fmt::format("- {}: {}\n", line.label, markdown_text(line.value));
  }
  out += "\n| model | firmware | capacity | drives | runs | partial | info | read page | write unit | erase block | "
         "alignment | reported / measured |\n";
  out += "|---|---|---|---:|---:|---:|---:|---|---|---|---|---|\n";
  for (const FleetGroup& g : c.groups) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                       markdown_text(group_name(g)), markdown_text(g.firmware), format_size(g.size_bytes), g.drives,
                       g.timed_runs, partial_short(g), g.info_documents, unit_short(g.read_page),
                       unit_short(g.write_unit), unit_short(g.erase_block), alignment_short(g),
                       reported_vs_measured_text(g));
  }
  out += "\npartial: timed runs that stopped early (interrupted, or stopped by an error), \"(all)\" when no run of "
         "the group is complete. alignment \"1 MiB in 2/3\": the runs disagree. reported / measured: the kernel's "
         "minimum_io_size beside the agreed read page and write unit, and optimal_io_size beside the agreed erase "
         "block.\n";
  for (const FleetGroup& g : c.groups) {
    out += fmt::format("\n## {}, firmware {}, {}\n\n", markdown_text(group_name(g)),
                       markdown_text(g.firmware.empty() ? "(none)" : g.firmware), format_size(g.size_bytes));
    out += fmt::format("- documents: {} ({}, {} info) from {}\n", g.documents, counted(g.timed_runs, "timed run"),
                       g.info_documents, counted(g.drives, "drive"));
    out += fmt::format("- partial: {}\n", markdown_text(partial_text(g)));
    out += fmt::format("- reported: logical {}, physical {}, minimum_io {}, optimal_io {}\n",
                       tally_text(g.logical_block), tally_text(g.physical_block), tally_text(g.minimum_io),
                       tally_text(g.optimal_io));
    for (const auto& [name, tally] : g.firmware_geometry) {
      out += fmt::format("- firmware {}: {}\n", markdown_text(name), tally_text(tally));
    }
    out += fmt::format("- read page: {}\n- write unit: {}\n- erase block: {}\n", unit_text(g.read_page),
                       unit_text(g.write_unit), unit_text(g.erase_block));
    std::string mismatches;
    for (const auto& [field, count] : g.mismatches) {
      mismatches += fmt::format("{}{} in {}", mismatches.empty() ? "" : ", ", markdown_text(field), count);
    }
    out += fmt::format("- mismatches: {}\n", mismatches.empty() ? "none" : mismatches);
    out += fmt::format("- alignment: {}\n", tally_text(g.partition_alignment));
    if (!g.representative.empty()) {
      const std::string note = representative_note(g);
      out += fmt::format("- representative run: {}{}\n", markdown_text(g.representative),
                         note.empty() ? "" : " (" + note + ")");
    }
    out += "\n";
    out += "| key cell | what | median over runs | p10 | p90 | runs |\n|---|---|---:|---:|---:|---:|\n";
    for (const KeyCell& k : g.key_cells) {
      if (k.spread.runs == 0) {
        out += fmt::format("| {} | {} | - | - | - | 0 |\n", k.key, k.description);
      } else {
        out += fmt::format("| {} | {} | {:.1f} µs | {:.1f} µs | {:.1f} µs | {} |\n", k.key, k.description,
                           k.spread.median_us, k.spread.p10_us, k.spread.p90_us, k.spread.runs);
      }
    }
  }
  if (!c.skipped.empty()) {
    out += "\n## Skipped files\n\n";
    for (const std::string& s : c.skipped) out += "- " + markdown_text(s) + "\n";
  }
  return out;
}

}  // namespace ssdprobe
