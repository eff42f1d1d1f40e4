#include "html/report_pictures.h"

#include <fmt/format.h>

#include "compare/group_heatmap.h"
#include "core/error.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_render.h"

namespace ssdprobe {
namespace {

struct GridPicture {
  const char* grid;  // as named in the document's grids[]
  const char* title;
  const char* what;  // the caption's first sentence
};

constexpr GridPicture kGridPictures[] = {
    {"read", "Read latency by request size and start offset",
     "The read grid: median latency of each request size (rows) started at each offset of a slot (columns)."},
    {"write", "Write latency by request size and start offset",
     "The write grid (inside the write window): median latency of each write size at each start offset."},
    {"write-in-cache", "Write latency inside the SLC cache",
     "The write grid again, inside the refilled SLC cache: the cache's own write unit."},
    {"read-written", "Read latency of the written window",
     "The read grid repeated over the window the write probes wrote (the first read grid found no read page)."},
};

bool has_grid(const SavedResult& document, const std::string& name) {
  for (const SavedGrid& g : document.grids) {
    if (g.name == name) return true;
  }
  return false;
}

ReportPicture grid_picture(const SavedResult& document, const GridPicture& kind) {
  ReportPicture picture{fmt::format("picture-{}", kind.grid), kind.title, kind.what, "", ""};
  try {
    HeatmapOptions options;
    options.grid = kind.grid;
    HeatmapFigure figure = heatmap_figure({document}, options);
    // The panel's label would repeat the model and the file name: untrusted
    // text inside a drawing; the page names the drive (escaped) once.
    for (HeatmapPanel& panel : figure.panels) {
      picture.caption += fmt::format(" Answer drawn: {}.", panel.verdict);
      panel.drive = "this run";
      panel.source_file.clear();
    }
    picture.caption += " A cell's colour is its median latency (the colour bar gives the scale); the lines mark the "
                       "detected unit's boundaries: a request that straddles one costs more.";
    picture.svg = inline_svg(render_heatmap_svg(figure));
    if (picture.svg.empty()) picture.missing = "gnuplot drew no SVG";
  } catch (const Error& e) {
    picture.missing = e.what();  // gnuplot missing or failing: the message names it
  }
  return picture;
}

}  // namespace

std::vector<ReportPicture> report_pictures(const SavedResult& document) {
  std::vector<ReportPicture> pictures;
  for (const GridPicture& kind : kGridPictures) {
    if (has_grid(document, kind.grid)) pictures.push_back(grid_picture(document, kind));
  }
  return pictures;
}

}  // namespace ssdprobe
