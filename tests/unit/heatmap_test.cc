// The numbers and geometry behind `ssdprobe plot`: what each cell's colour
// means (absolute, above the row's fastest, throughput), the one colour scale
// shared by side-by-side drives, and where cells and unit lines are drawn.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_layout.h"
#include "plot/heatmap_matrix.h"

using namespace ssdprobe;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

SavedGrid read_grid() {
  SavedGrid g;
  g.name = "read";
  g.op = "read";
  g.sizes = {4096, 8192};
  g.offsets = {0, 4096, 8192, 12288, 16384, 20480, 24576, 28672};  // 32 KiB of 4 KiB steps
  g.median_us = {{80, 120, 120, 120, 80, 120, 120, 120}, {100, 140, kNaN, 140, 100, 140, 140, 140}};
  return g;
}

SavedResult document(const std::string& file, double scale_by) {
  SavedResult r;
  r.file = file;
  r.model = "Test drive";
  r.read_page = {16384, "found", 0.97, std::nullopt, ""};
  r.write_unit = {std::nullopt, "undetermined", 0.4, std::nullopt, "rerun with --budget 120"};
  SavedGrid g = read_grid();
  for (auto& row : g.median_us) {
    for (double& v : row) v *= scale_by;
  }
  r.grids.push_back(g);
  SavedGrid w;
  w.name = "write";
  w.op = "write";
  w.sizes = {4096};
  w.offsets = {0, 512, 4096, 12288, 16384};  // uneven, like the write grid
  w.median_us = {{30, 60, 40, 45, 30}};
  r.grids.push_back(w);
  return r;
}

}  // namespace

TEST_CASE("absolute heatmap cells are the grid's medians and keep NaN where there were no samples") {
  const HeatmapMatrix m = heatmap_matrix(read_grid(), HeatmapScale::absolute);
  CHECK(m.cells[0][1] == 120);
  CHECK(std::isnan(m.cells[1][2]));
  CHECK(m.max_value == 140);
}

TEST_CASE("relative heatmap: each row above its own fastest cell, NaN left alone") {
  SavedGrid g = read_grid();
  g.median_us.push_back({kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN});  // a row never sampled
  g.sizes.push_back(16384);
  const HeatmapMatrix m = heatmap_matrix(g, HeatmapScale::above_fastest);
  CHECK(m.cells[0][0] == 0);
  CHECK(m.cells[0][1] == 40);
  CHECK(m.cells[1][4] == 0);
  CHECK(m.cells[1][1] == 40);
  CHECK(std::isnan(m.cells[1][2]));
  CHECK(std::isnan(m.cells[2][0]));
  CHECK(m.max_value == 40);
}

TEST_CASE("throughput heatmap: request size over median latency in MB/s") {
  const HeatmapMatrix m = heatmap_matrix(read_grid(), HeatmapScale::throughput);
  CHECK(m.cells[0][0] == Approx(4096.0 / 80));  // bytes per µs = MB/s
  CHECK(m.cells[1][4] == Approx(8192.0 / 100));
  CHECK(std::isnan(m.cells[1][2]));
  CHECK(m.max_value == Approx(8192.0 / 100));
}

TEST_CASE("side-by-side documents share one colour scale from zero") {
  const HeatmapFigure f = heatmap_figure({document("a.json", 1.0), document("b.json", 3.0)}, {});
  REQUIRE(f.panels.size() == 2);
  CHECK(f.colour_min == 0);
  CHECK(f.colour_max == 3 * 140);  // the larger of the two panels
  CHECK(f.panels[0].matrix.max_value == 140);
  CHECK(f.panels[0].unit_bytes == 16384u);
  CHECK(f.panels[0].unit_name == "read page");
  CHECK(f.panels[0].verdict == "read page 16 KiB (confidence 0.97)");
  CHECK_FALSE(f.panels[0].categorical_offsets);
  // Same drive twice: the titles tell the documents apart.
  CHECK(panel_title(f, 0) == "Test drive (a.json)\nread page 16 KiB (confidence 0.97)");
}

TEST_CASE("a write grid is judged against the write unit and drawn as categorical columns") {
  HeatmapOptions options;
  options.grid = "write";
  const HeatmapFigure f = heatmap_figure({document("a.json", 1.0)}, options);
  const HeatmapPanel& p = f.panels[0];
  CHECK(p.categorical_offsets);
  CHECK_FALSE(p.unit_bytes);
  // Not determined: no confidence of its own, and what would tell.
  CHECK(p.verdict == "write unit not determined (rerun with --budget 120)");
  const PanelAxes axes = panel_axes(p);
  REQUIRE(axes.x_ticks.size() == 5);
  CHECK(axes.x_ticks[1].label == "0.5");
  CHECK(axes.x_ticks[3].label == "12");
  CHECK(axes.boundaries.empty());  // nothing found, nothing drawn
  // With a 4 KiB write unit: a line before each column at a multiple of it.
  HeatmapPanel found = p;
  found.unit_bytes = 4096;
  const PanelAxes with_unit = panel_axes(found);
  CHECK(with_unit.boundaries == std::vector<double>{1.5, 2.5, 3.5});
}

TEST_CASE("the first read grid of a run that re-read its written window does not claim the re-read's page") {
  SavedResult r = document("fresh.json", 1.0);
  SavedGrid again = r.grids[0];
  again.name = "read-written";
  r.grids.push_back(again);
  r.read_page.confidence = 0.998;
  CHECK(heatmap_figure({r}, {}).panels[0].verdict ==
        "no read page in this grid; 16 KiB (confidence 0.998) in the read-written grid");
  HeatmapOptions reread;
  reread.grid = "read-written";
  CHECK(heatmap_figure({r}, reread).panels[0].verdict == "read page 16 KiB (confidence 0.998)");
}

TEST_CASE("a read grid sits on a byte axis: each cell spans its column step, lines at unit multiples") {
  const HeatmapFigure f = heatmap_figure({document("a.json", 1.0)}, {});
  const HeatmapPanel& p = f.panels[0];
  const PanelAxes axes = panel_axes(p);
  CHECK(axes.x_low == 0);
  CHECK(axes.x_high == 32);  // KiB: the last offset plus one step
  CHECK(axes.boundaries == std::vector<double>{16});
  for (const AxisTick& t : axes.x_ticks) CHECK(std::fmod(t.at, 16.0) == 0);  // at multiples of the read page
  const auto boxes = cell_boxes(p, axes);
  CHECK(boxes.size() == 15);  // 16 cells, one without samples
  CHECK(boxes[4].x_low == 16);
  CHECK(boxes[4].x_high == 20);
  CHECK(boxes[4].value == 80);
  CHECK(axes.y_ticks[1].label == "8");
}

TEST_CASE("a document without the grid is refused naming the file and the grids it has") {
  SavedResult info;
  info.file = "info.json";
  HeatmapOptions options;
  try {
    heatmap_figure({info}, options);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::target);
    CHECK(std::string(e.what()).find("info.json: has no \"read\" grid") == 0);
  }
}
