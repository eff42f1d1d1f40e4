#include "html/report_pictures.h"

#include <fmt/format.h>

#include <optional>

#include "compare/group_heatmap.h"
#include "compare/svg_compact.h"
#include "core/error.h"
#include "plot/charts.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_render.h"

namespace ssdprobe {
namespace {

struct GridPicture {
  const char* id;
  const char* grid;  // as named in the document's grids[]
  bool fold;         // offsets modulo the unit, every slot pooled
  const char* title;
  const char* what;  // the caption's first sentence
};

// The folded read grid comes first: it is the picture that shows the read
// page with all the data behind it; the whole grid follows for the detail.
constexpr GridPicture kGridPictures[] = {
    {"picture-read-folded", "read", true, "Read latency, folded at the read page",
     "The read grid folded: each column is an offset modulo the unit (or the best candidate), its colour the median "
     "of that offset's cells over every slot, so the step at the unit boundary shows with all the data behind it."},
    {"picture-read", "read", false, "Read latency by request size and start offset",
     "The read grid: median latency of each request size (rows) started at each offset of a slot (columns)."},
    {"picture-write", "write", false, "Write latency by request size and start offset",
     "The write grid (inside the write window): median latency of each write size at each start offset."},
    {"picture-write-in-cache", "write-in-cache", false, "Write latency inside the SLC cache",
     "The write grid again, inside the refilled SLC cache: the cache's own write unit."},
    {"picture-read-written", "read-written", false, "Read latency of the written window",
     "The read grid repeated over the window the write probes wrote (the first read grid found no read page)."},
};

struct ChartPicture {
  ChartKind kind;
  const char* title;
};

constexpr ChartPicture kChartPictures[] = {
    {ChartKind::queue_depth, "IOPS and p99 latency against queue depth"},
    {ChartKind::erase_block, "Write latency along the erase stream"},
    {ChartKind::slc_cache, "Write speed while the SLC cache fills"},
    {ChartKind::misalignment, "What each audited start costs"},
};

bool has_grid(const SavedResult& document, const std::string& name) {
  for (const SavedGrid& g : document.grids) {
    if (g.name == name) return true;
  }
  return false;
}

// The drive's name and the file name are untrusted text inside a drawing;
// the page names the drive (escaped) once, so the pictures say "this run".
SavedResult anonymous(const SavedResult& document) {
  SavedResult copy = document;
  copy.model = "this run";
  copy.file.clear();
  return copy;
}

// "run.json: has no write_probe.stream (...)" -> "has no write_probe.stream (...)":
// the page is about one document.
std::string without_file_name(const std::string& reason, const std::string& file) {
  const std::string prefix = file + ": ";
  return !file.empty() && reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
}

// How to read the panel's unit marks: what the plot drew, not what it could.
std::string boundary_words(const HeatmapPanel& panel) {
  if (panel.folded_at) return "the left and right edges are the boundaries it was folded at";
  if (panel.unit_bytes) return "the dashed lines mark the " + panel.unit_name + "'s boundaries";
  return "no " + panel.unit_name + " was found, so no boundary lines are drawn";
}

// nullopt for the folded view of a grid that could not be folded (no unit,
// no candidate): the whole grid follows anyway.
std::optional<ReportPicture> grid_picture(const SavedResult& document, const GridPicture& kind) {
  ReportPicture picture{kind.id, kind.title, kind.what, "", "", true};
  try {
    HeatmapOptions options;
    options.grid = kind.grid;
    options.fold = kind.fold;
    HeatmapFigure figure = heatmap_figure({anonymous(document)}, options);
    for (const HeatmapPanel& panel : figure.panels) {
      if (kind.fold && !panel.folded_at) return std::nullopt;
      // "Read latency, folded at 16 KiB: the best candidate (support 0.62),
      // not a found read page": the heading never claims a unit not found.
      if (kind.fold) picture.title = "Read latency, " + panel.fold_note;
      picture.caption += fmt::format(" Answer drawn: {}.", panel.verdict);
      picture.caption += fmt::format(" A cell's colour is its median latency (the colour bar gives the scale and "
                                     "marks cells beyond its top); {}.", boundary_words(panel));
    }
    // One <path> per run of same-coloured cells instead of a polygon per
    // cell: the same picture at about half the bytes, for a page that is
    // attached to tickets.
    picture.svg = compact_svg_cells(inline_svg(render_heatmap_svg(figure)));
    if (picture.svg.empty()) picture.missing = "gnuplot drew no SVG";
  } catch (const Error& e) {
    picture.missing = e.what();  // gnuplot missing or failing: the message names it
  }
  return picture;
}

ReportPicture chart_picture(const SavedResult& document, const ChartPicture& kind) {
  ReportPicture picture{fmt::format("picture-{}", chart_kind_name(kind.kind)), kind.title, "", "", "", true};
  if (const auto reason = chart_unavailable_reason(document, kind.kind)) {
    picture.available = false;
    picture.missing = without_file_name(*reason, document.file);
    return picture;
  }
  try {
    const Chart chart = build_chart({anonymous(document)}, kind.kind);
    picture.caption = chart.caption.empty() ? chart.title : chart.title + ". " + chart.caption;
    picture.svg = inline_svg(render_chart_svg(chart));
    if (picture.svg.empty()) picture.missing = "gnuplot drew no SVG";
  } catch (const Error& e) {
    picture.missing = e.what();
  }
  return picture;
}

}  // namespace

std::vector<ReportPicture> report_pictures(const SavedResult& document) {
  std::vector<ReportPicture> pictures;
  for (const GridPicture& kind : kGridPictures) {
    if (!has_grid(document, kind.grid)) continue;
    if (std::optional<ReportPicture> picture = grid_picture(document, kind)) pictures.push_back(std::move(*picture));
  }
  if (!document.measured) return pictures;  // info and audit documents time nothing
  for (const ChartPicture& kind : kChartPictures) pictures.push_back(chart_picture(document, kind));
  return pictures;
}

}  // namespace ssdprobe
