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

struct HeatmapOptions {
  std::string grid = "read";                    // read, write, read-written (as named in the document)
  HeatmapScale scale = HeatmapScale::absolute;  // what a cell's colour means
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
};

struct HeatmapFigure {
  std::string title;                  // one line over all panels
  HeatmapScale scale = HeatmapScale::absolute;
  std::string colour_label;           // what the colour is, e.g. "µs above the fastest offset of the same size"
  double colour_min = 0.0, colour_max = 0.0;  // the shared scale: from zero to the largest cell of any panel
  std::vector<HeatmapPanel> panels;   // left to right
};

// One panel per document, in the order given. Throws Error(target) naming the
// file when a document lacks the grid (read_saved_result already refused
// unreadable or foreign documents).
HeatmapFigure heatmap_figure(const std::vector<SavedResult>& documents, const HeatmapOptions& options);

}  // namespace ssdprobe
