#include "plot/heatmap_figure.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.h"
#include "plot/heatmap_fold.h"
#include "plot/heatmap_scale.h"
#include "plot/unit_words.h"

namespace ssdprobe {
namespace {

// Evenly spaced offsets can sit on a true byte axis; anything else (the
// write grid's 0, 512, 1024, 1536, 2048, 3072, ... columns) cannot.
bool evenly_spaced(const std::vector<uint64_t>& offsets) {
  if (offsets.size() < 2) return true;
  const uint64_t step = offsets[1] - offsets[0];
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] <= offsets[i - 1] || offsets[i] - offsets[i - 1] != step) return false;
  }
  return true;
}

std::string figure_title(const std::string& grid, HeatmapScale scale) {
  switch (scale) {
    case HeatmapScale::absolute:
      return fmt::format("{} grid: median latency by request size and offset", grid);
    case HeatmapScale::above_fastest:
      return fmt::format("{} grid: median latency above the fastest offset of the same request size", grid);
    case HeatmapScale::throughput:
      return fmt::format("{} grid: throughput (request size / median latency) by request size and offset", grid);
  }
  return grid;
}

std::string colour_unit(HeatmapScale scale) { return scale == HeatmapScale::throughput ? "MB/s" : "µs"; }

// Folds the panel's medians at its unit, else at the candidate the fit
// leaned to, and says which in fold_note; a panel with neither stays
// unfolded (a figure of several drives, or a report's default view, still
// draws) and its note says why.
void fold_panel(HeatmapPanel& panel, const SavedGrid& grid, const SavedUnit& unit, HeatmapScale scale) {
  std::optional<uint64_t> at = panel.unit_bytes;
  if (at) {
    panel.fold_note = fmt::format("folded at the {}, {}", panel.unit_name, format_size(*at));
  } else if (unit.best_candidate_bytes && *unit.best_candidate_bytes > 0) {
    at = unit.best_candidate_bytes;
    panel.fold_note = fmt::format("folded at {}: the best candidate (support {:.2f}), not a found {}",
                                  format_size(*at), unit.best_candidate_support, panel.unit_name);
  } else {
    panel.fold_note = fmt::format("not folded: no {} found and no candidate to fold at", panel.unit_name);
    return;
  }
  FoldedMatrix folded = fold_matrix(heatmap_matrix(grid, HeatmapScale::absolute), *at);
  panel.matrix = in_scale(std::move(folded.matrix), scale);
  panel.folded_at = at;
  panel.fold_pooled = folded.pooled;
}

std::vector<uint64_t> all_row_sizes(const std::vector<HeatmapPanel>& panels) {
  std::vector<uint64_t> sizes;
  for (const HeatmapPanel& panel : panels) {
    sizes.insert(sizes.end(), panel.matrix.sizes.begin(), panel.matrix.sizes.end());
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::string colour_label(HeatmapScale scale) {
  switch (scale) {
    case HeatmapScale::absolute: return "median latency (µs)";
    case HeatmapScale::above_fastest: return "µs above the fastest offset of the same request size";
    case HeatmapScale::throughput: return "throughput (MB/s, 10^6 bytes/s)";
  }
  return "";
}

}  // namespace

HeatmapFigure heatmap_figure(const std::vector<SavedResult>& documents, const HeatmapOptions& options) {
  HeatmapFigure figure;
  figure.scale = options.scale;
  figure.title = figure_title(options.grid, options.scale);
  figure.colour_label = colour_label(options.scale);
  figure.colour_unit = colour_unit(options.scale);
  figure.width_px = options.width_px;
  figure.height_px = options.height_px;
  for (const SavedResult& document : documents) {
    const SavedGrid& grid = find_grid(document, options.grid);
    HeatmapPanel panel;
    panel.drive = !document.model.empty() ? document.model : document.path;
    panel.source_file = document.file;
    panel.matrix = heatmap_matrix(grid, options.scale);
    // The write grid is judged against the write unit, the grid inside the
    // SLC cache against the unit it found; every read grid (the first one
    // and the re-read of the written window) against the read page.
    const bool write_grid = grid.op == "write" || (grid.op.empty() && grid.name == "write");
    const bool in_cache = grid.name == "write-in-cache";
    panel.unit_name = in_cache ? "write unit inside the SLC cache" : write_grid ? "write unit" : "read page";
    const SavedUnit& unit =
        in_cache ? document.write_unit_in_cache : write_grid ? document.write_unit : document.read_page;
    if (unit.state == "found" && unit.bytes && *unit.bytes > 0) panel.unit_bytes = unit.bytes;
    panel.verdict = unit_verdict(panel.unit_name, unit);
    // The re-read of the written window runs only when the first read grid
    // found no page; a page found then is the re-read's, and the first grid's
    // panel says where it was found. Otherwise the panel has the run's answer
    // in the report's words (not determined, or ruled out up to its reach):
    // the document keeps no separate answer per read grid to say more.
    const bool reread = std::any_of(document.grids.begin(), document.grids.end(),
                                    [](const SavedGrid& g) { return g.name == "read-written"; });
    if (!write_grid && grid.name != "read-written" && reread && panel.unit_bytes) {
      panel.verdict += ", found in the read-written grid";
    }
    if (options.fold) fold_panel(panel, grid, unit, options.scale);
    panel.categorical_offsets = !evenly_spaced(panel.matrix.offsets);
    figure.panels.push_back(std::move(panel));
  }
  figure.row_sizes = all_row_sizes(figure.panels);
  if (options.range) {
    figure.colour_min = options.range->min;
    figure.colour_max = options.range->max;
  } else {
    // Latency from the fastest cell (marked on the colour bar); the relative
    // scale's rows start at 0 anyway, and throughput stays from zero.
    if (options.scale == HeatmapScale::absolute) figure.colour_min = robust_colour_bottom(figure.panels);
    figure.colour_max = robust_colour_top(figure.panels);
  }
  return figure;
}

}  // namespace ssdprobe
