// The HTML report: one self-contained file (inline CSS, inline SVG, no
// scripts, nothing fetched), a summary table and one section per group.
// Every string from a document goes through html_text: model strings are
// untrusted.
#include <algorithm>
#include <fmt/format.h>

#include "compare/agreement_text.h"
#include "compare/compare_render.h"
#include "compare/coverage_text.h"
#include "compare/text_escape.h"
#include "core/plural.h"
#include "core/units.h"
#include "report/output_kinds.h"

namespace ssdprobe {
namespace {

// No fixed page width: the summary spans the window (and scrolls inside its
// own box when the window is narrower than its columns: a model or a file
// name without spaces may break anywhere, so that a 1280 px window with its
// scroll bar holds every column); a group's tables
// and its heatmap sit side by side when both fit at a readable width, one
// above the other otherwise; the SVG scales to its column (its viewBox keeps
// the proportions).
constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; white-space: nowrap; }
td.u { white-space: nowrap; }
.scroll { overflow-x: auto; }
#summary { width: 100%; font-size: 0.9em; }
#summary td:first-child, figcaption { overflow-wrap: anywhere; }
.nw { white-space: nowrap; }
#coverage th { background: none; border: none; padding: 0.1em 1em 0.1em 0; font-weight: normal; color: #555; }
#coverage td { border: none; padding: 0.1em 0; }
section { border-top: 2px solid #888; margin-top: 2em; }
.group-body { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 44em), 1fr)); gap: 0 2em;
  align-items: start; }
.group-body table { width: 100%; }
.note { color: #666; font-size: 0.9em; }
td.u.unsure, .unsure { color: #a50; }
.too-small { color: #b00; }
.partial, td.n.partial { color: #a50; font-weight: bold; }
figure { margin: 0.5em 0; }
figure svg { display: block; width: 100%; height: auto; }
)";

std::string cell(const std::string& text, bool numeric = false) {
  return fmt::format("<td{}>{}</td>", numeric ? " class=\"n\"" : "", text);
}

std::string unit_cell(const UnitAgreement& u) {
  const std::string text = html_text(unit_short(u));
  const bool unsure = u.measured() > 0 && !u.agreed() && u.ruled_out != u.measured();
  return fmt::format("<td class=\"u{}\" title=\"{}\">{}</td>", unsure ? " unsure" : "", html_text(unit_text(u)), text);
}

// The count of partial runs, marked (and listed in its title) when there is one.
std::string partial_cell(const FleetGroup& g) {
  if (g.partial_runs.empty()) return cell("0", true);
  return fmt::format("<td class=\"n partial\" title=\"{}\">{}</td>", html_text(partial_text(g)),
                     html_text(partial_short(g)));
}

// The recommended alignment, marked when the runs disagree (every value in its title).
std::string alignment_cell(const FleetGroup& g) {
  const bool disagree = g.partition_alignment.entries.size() > 1;
  return fmt::format("<td class=\"u{}\" title=\"{}\">{}</td>", disagree ? " unsure" : "",
                     html_text(tally_text(g.partition_alignment)), html_text(alignment_short(g)));
}

// The head (the Content-Security-Policy lets nothing load or run), the
// opening paragraph (what was compared, the agreement rule), what the report
// covers (when made, versions, hosts, runs) and how the heatmaps' colours
// compare across groups.
std::string page_head(const FleetComparison& c, const std::string& colour_scale_note) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += std::string(kHtmlGenerator) + "\n";  // how the output door knows the page as ssdprobe's
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src data:\">\n";
  out += "<title>ssdprobe compare</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  out += fmt::format("<h1>ssdprobe compare</h1>\n<p>{} in {}{}. Agreement rule: a unit is agreed when "
                     "at least {} % of the runs that measured it found the same size; <span class=\"unsure\">X?</span> "
                     "is the most frequent size that misses the rule.</p>\n",
                     counted(c.documents, "document"), counted(c.groups.size(), "group"),
                     c.skipped.empty() ? "" : fmt::format(", {} skipped", counted(c.skipped.size(), "file")),
                     kAgreementPercent);
  out += "<table id=\"coverage\">\n";
  for (const CoverageLine& line : coverage_lines(c.coverage)) {
    out += fmt::format("<tr id=\"coverage-{}\"><th>{}</th><td>{}</td></tr>\n", line.key, line.label,
                       html_text(line.value));
  }
  out += "</table>\n";
  if (!colour_scale_note.empty()) out += "<p id=\"colour-scale\">" + html_text(colour_scale_note) + "</p>\n";
  return out;
}

// The reported / measured cell: one line per pair, a pair whose reported
// value does not cover the agreed unit marked (and said in its title).
std::string reported_measured_cell(const FleetGroup& g) {
  std::string out = "<td class=\"rm\">";
  bool first = true;
  for (const ReportedMeasured& pair : reported_vs_measured(g)) {
    // "read page 8 KiB" and the like each kept on one line; a narrow window
    // breaks the pair at " / " and between measured units.
    std::string measured;
    for (size_t at = 0; at <= pair.measured.size();) {
      const size_t comma = std::min(pair.measured.find(", ", at), pair.measured.size());
      measured += fmt::format("{}<span class=\"nw\">{}</span>", at == 0 ? "" : ", ",
                              html_text(pair.measured.substr(at, comma - at)));
      at = comma + 2;
    }
    out += fmt::format("{}<span{}><span class=\"nw\">{}</span> / {}</span>", first ? "" : "<br>",
                       pair.reported_too_small ? " class=\"too-small\" title=\"the reported size does not cover the "
                                                 "measured unit\""
                                               : "",
                       html_text(pair.reported), measured);
    first = false;
  }
  return out + "</td>";
}

// One group's row of the summary table, linking to its section (`number`
// counts groups from 1).
std::string summary_row(const FleetGroup& g, size_t number) {
  std::string out = fmt::format("<tr class=\"group\" id=\"row-{}\">", number);
  out += fmt::format("<td><a href=\"#group-{}\">{}</a></td>", number, html_text(group_name(g)));
  out += cell(html_text(g.firmware)) + cell(format_size(g.size_bytes)) + cell(std::to_string(g.drives), true) +
         cell(std::to_string(g.timed_runs), true) + partial_cell(g) + cell(std::to_string(g.info_documents), true);
  out += unit_cell(g.read_page) + unit_cell(g.write_unit) + unit_cell(g.erase_block);
  out += alignment_cell(g) + reported_measured_cell(g);
  for (size_t k = 0; k < 2 && k < g.key_cells.size(); ++k) {
    const LatencySpread& s = g.key_cells[k].spread;
    out += cell(s.runs ? fmt::format("{:.1f} µs", s.median_us) : "-", true);
  }
  return out + "</tr>\n";
}

std::string summary_table(const FleetComparison& c) {
  std::string out = "<div class=\"scroll\">\n<table id=\"summary\">\n<tr><th>model</th><th>firmware</th>"
                    "<th>capacity</th><th>drives</th><th>runs</th>"
                    "<th title=\"timed runs that stopped early (interrupted, or stopped by an error)\">partial</th>"
                    "<th>info</th><th>read page</th><th>write unit</th><th>erase block</th>"
                    "<th title=\"the recommended partition alignment; 1 MiB in 2/3: the runs disagree\">alignment</th>"
                    "<th title=\"the kernel's minimum_io_size beside the agreed read page and write unit; "
                    "optimal_io_size beside the agreed erase block\">reported / measured</th>"
                    "<th>4 KiB aligned</th><th>straddling page</th></tr>\n";
  for (size_t i = 0; i < c.groups.size(); ++i) out += summary_row(c.groups[i], i + 1);
  return out + "</table>\n</div>\n<p class=\"note\">reported / measured: what the kernel reports (sysfs "
               "minimum_io_size, optimal_io_size: what mkfs and partitioning tools read) beside what the runs "
               "measured and agreed on for the same job; <span class=\"too-small\">red</span> where the reported "
               "size does not cover the measured unit. partial: timed runs that stopped early (interrupted, or "
               "stopped by an error), <span class=\"partial\">marked</span>, \"(all)\" when no run of the group "
               "is complete; their units count as far as they were measured. alignment \"1 MiB in 2/3\": the runs "
               "disagree. The latency columns are the medians over runs of the key cells (each group's section has "
               "them all).</p>\n";
}

// A group's reported geometry, detected units, mismatches and alignment.
std::string geometry_table(const FleetGroup& g) {
  std::string out = "<table>\n";
  auto row = [&](const std::string& name, const std::string& value) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", name, value);
  };
  row("reported (sysfs)", html_text(fmt::format("logical {}, physical {}, minimum_io {}, optimal_io {}",
                                                tally_text(g.logical_block), tally_text(g.physical_block),
                                                tally_text(g.minimum_io), tally_text(g.optimal_io))));
  for (const auto& [name, tally] : g.firmware_geometry) {
    row("firmware " + html_text(name), html_text(tally_text(tally)));
  }
  row("partial runs", html_text(partial_text(g)));
  row("read page", html_text(unit_text(g.read_page)));
  row("write unit", html_text(unit_text(g.write_unit)));
  row("erase block", html_text(unit_text(g.erase_block)));
  std::string mismatches;
  for (const auto& [field, count] : g.mismatches) {
    mismatches += fmt::format("{}{} in {}", mismatches.empty() ? "" : ", ", field, count);
  }
  row("mismatches", html_text(mismatches.empty() ? "none" : mismatches));
  row("alignment", html_text(tally_text(g.partition_alignment)));
  return out + "</table>\n";
}

// The spread of each key latency cell over the group's runs.
std::string key_cell_table(const FleetGroup& g) {
  std::string out = "<table class=\"key-cells\">\n<tr><th>key cell</th><th>what</th><th>median over runs</th>"
                    "<th>p10</th><th>p90</th><th>runs</th></tr>\n";
  for (const KeyCell& k : g.key_cells) {
    const LatencySpread& s = k.spread;
    out += fmt::format("<tr><td>{}</td><td>{}</td>", html_text(k.key), html_text(k.description));
    if (s.runs) {
      out += fmt::format("<td class=\"n\">{:.1f} µs</td><td class=\"n\">{:.1f} µs</td><td class=\"n\">{:.1f} µs</td>",
                         s.median_us, s.p10_us, s.p90_us);
    } else {
      out += "<td class=\"n\">-</td><td class=\"n\">-</td><td class=\"n\">-</td>";
    }
    out += fmt::format("<td class=\"n\">{}</td></tr>\n", s.runs);
  }
  return out + "</table>\n";
}

// One group's section (`number` counts groups from 1): its tables, and the
// heatmap of its representative run.
std::string group_section(const FleetGroup& g, size_t number, const GroupPicture& picture) {
  std::string out = fmt::format("<section class=\"group\" id=\"group-{}\">\n<h2>{}</h2>\n", number,
                                html_text(fmt::format("{}, firmware {}, {}", group_name(g),
                                                      g.firmware.empty() ? "(none)" : g.firmware,
                                                      format_size(g.size_bytes))));
  out += fmt::format("<p>{} ({}, {} info) from {}.</p>\n", counted(g.documents, "document"),
                     counted(g.timed_runs, "timed run"), g.info_documents, counted(g.drives, "drive"));
  out += "<div class=\"group-body\">\n<div>\n" + geometry_table(g) + key_cell_table(g) + "</div>\n";
  if (!g.representative.empty()) {
    const std::string note = representative_note(g);
    out += fmt::format("<figure>\n{}\n<figcaption class=\"note\">Read grid of a representative run ({}{}): median "
                       "latency per request size and offset.</figcaption>\n</figure>\n",
                       picture(g), html_text(g.representative),
                       note.empty() ? "" : "; <span class=\"partial\">" + html_text(note) + "</span>");
  } else if (g.timed_runs == 0) {
    out += "<p class=\"note\">No timed run in this group: no heatmap.</p>\n";
  } else {
    out += "<p class=\"note\">No timed run of this group has a read grid: no heatmap.</p>\n";
  }
  return out + "</div>\n</section>\n";
}

std::string skipped_section(const std::vector<std::string>& skipped) {
  std::string out = "<section id=\"skipped\">\n<h2>Skipped files</h2>\n<ul>\n";
  for (const std::string& s : skipped) out += "<li>" + html_text(s) + "</li>\n";
  return out + "</ul>\n</section>\n";
}

}  // namespace

std::string render_html(const FleetComparison& c, const GroupPicture& picture, const std::string& colour_scale_note) {
  std::string out = page_head(c, colour_scale_note) + summary_table(c);
  for (size_t i = 0; i < c.groups.size(); ++i) out += group_section(c.groups[i], i + 1, picture);
  if (!c.skipped.empty()) out += skipped_section(c.skipped);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace ssdprobe
