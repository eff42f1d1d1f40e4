// The groups' pictures for the HTML report: the read grid of each group's
// representative run as a heatmap, drawn by the plot layer (gnuplot) and
// inlined as <svg>. All figures are built before any is drawn, so that
// --shared-scale can put every group on one colour range.
#pragma once

#include <map>
#include <string>

#include "compare/fleet_comparison.h"
#include "plot/heatmap_figure.h"

namespace ssdprobe {

class GroupHeatmaps {
 public:
  // Reads every group's representative run (its full read grid). A document
  // that cannot be read or lacks the grid is remembered, not thrown: one
  // missing picture must not lose the report. With `shared_scale` every
  // figure's colour range becomes the union of all of them (the lowest
  // bottom to the highest top), so one colour is one latency in every group.
  GroupHeatmaps(const FleetComparison& comparison, bool shared_scale);

  // The inline <svg> element (its cells compacted: compare/svg_compact.h),
  // or a <p class="note heatmap-missing"> saying why there is no picture
  // (gnuplot not installed, the document unreadable since it was compared,
  // gnuplot failed). Never throws Error.
  std::string html(const FleetGroup& group) const;

  // What the page says about the colours: shared (and its range), or one
  // scale per group.
  std::string scale_note() const;

 private:
  std::map<std::string, HeatmapFigure> figures_;  // by representative file
  std::map<std::string, std::string> failures_;   // by representative file: why there is no figure
  bool shared_ = false;
  double shared_min_ = 0.0, shared_max_ = 0.0;
};

// gnuplot's SVG document made fit to sit inside HTML: everything before the
// <svg element (XML declaration, DOCTYPE, comments) removed, and any
// <script> element dropped (the report runs no scripts).
std::string inline_svg(const std::string& svg_document);

}  // namespace ssdprobe
