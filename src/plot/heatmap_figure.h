// What one `ssdprobe plot` picture shows, built from saved result documents:
// one panel per document (drives side by side), all panels on ONE colour
// scale so the same colour means the same number everywhere. Pure data: the
// gnuplot script is made from it (plot/heatmap_render.h), and a caller that
// only wants the numbers (tests, the comparison) can read them here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plot/heatmap_matrix.h"
#include "report/saved_result.h"

namespace ssdprobe {

// Where the colours run, in the unit of the figure's scale.
struct ColourRange {
  double min = 0.0, max = 0.0;
};

struct HeatmapOptions {
  std::string grid = "read";                    // read, write, read-written (as named in the document)
  HeatmapScale scale = HeatmapScale::absolute;  // what a cell's colour means
  // Offsets modulo the panel's unit (the found one, else the best candidate),
  // every slot's cells pooled (plot/heatmap_fold.h). A panel with no unit and
  // no candidate is drawn unfolded and its title says so.
  bool fold = false;
  // The colour scale by hand; none: from the robust bottom (latency) or zero
  // (relative, throughput) to the robust top (plot/heatmap_scale.h).
  std::optional<ColourRange> range;
  // The image's size in pixels; 0: from the panels (their columns and rows).
  int width_px = 0, height_px = 0;
};

struct HeatmapPanel {
  std::string drive;          // model, else the target path
  std::string verdict;        // "read page 16 KiB (confidence 0.97)", "read page not determined (...)"
  std::string source_file;    // the document it came from
  HeatmapMatrix matrix;       // cells in the unit of the figure's scale
  // The detected unit that matters for this grid (read page for read grids,
  // write unit for the write grid): boundary lines and tick spacing.
  std::optional<uint64_t> unit_bytes;
  std::string unit_name;      // "read page", "write unit"
  // Offsets that are not evenly spaced (the write grid's 0 and write sizes)
  // are drawn as labelled columns, not on a linear byte axis that would
  // suggest the gaps between them were measured.
  bool categorical_offsets = false;
  // Folded (HeatmapOptions::fold): the matrix's offsets are phases in
  // [0, folded_at) and each cell pools up to fold_pooled cells of the grid.
  std::optional<uint64_t> folded_at;
  size_t fold_pooled = 0;
  // With fold asked: what it was folded at ("folded at the read page,
  // 16 KiB", "folded at 16 KiB, the best candidate (support 0.62), not a found
  // read page") or why not ("not folded: no read page and no candidate").
  std::string fold_note;
};

struct HeatmapFigure {
  std::string title;                  // one line over all panels
  HeatmapScale scale = HeatmapScale::absolute;
  std::string colour_label;           // what the colour is, e.g. "µs above the fastest offset of the same size"
  std::string colour_unit;            // "µs", "MB/s": for the colour bar's marks
  // The one colour scale of all panels: by default from the robust bottom
  // (zero for relative and throughput) to the robust top (heatmap_scale.h),
  // else --range. A caller may overwrite both (a
  // comparison's scale shared across figures): everything drawn from them,
  // the clipped cells and their marks included, is computed when rendered.
  double colour_min = 0.0, colour_max = 0.0;
  std::vector<HeatmapPanel> panels;   // left to right
  // Every panel's request sizes, ascending: a size sits on the same row in
  // every panel (a 512 B drive beside a 4 KiB one), blank where a grid lacks it.
  std::vector<uint64_t> row_sizes;
  int width_px = 0, height_px = 0;    // asked for (HeatmapOptions); 0: from the panels
};

// One panel per document, in the order given. Throws Error(target) naming the
// file when a document lacks the grid (read_saved_result already refused
// unreadable or foreign documents).
HeatmapFigure heatmap_figure(const std::vector<SavedResult>& documents, const HeatmapOptions& options);

}  // namespace ssdprobe
