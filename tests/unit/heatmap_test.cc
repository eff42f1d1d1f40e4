// The numbers and geometry behind `ssdprobe plot`: what each cell's colour
// means (absolute, above the row's fastest, throughput), the one colour scale
// shared by side-by-side drives, and where cells and unit lines are drawn.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_fold.h"
#include "plot/heatmap_layout.h"
#include "plot/heatmap_matrix.h"
#include "plot/heatmap_scale.h"

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
  r.read_page = {16384, "found", 0.97, std::nullopt, "", std::nullopt, 0.0};
  r.write_unit = {std::nullopt, "undetermined", 0.4, std::nullopt, "rerun with --budget 120", std::nullopt, 0.0};
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

TEST_CASE("side-by-side documents share one colour scale, from the fastest cell of either") {
  const HeatmapFigure f = heatmap_figure({document("a.json", 1.0), document("b.json", 3.0)}, {});
  REQUIRE(f.panels.size() == 2);
  CHECK(f.colour_min == 80);  // a.json's aligned 4 KiB cells
  CHECK(f.colour_max == 3 * 140);  // the larger of the two panels: no cell is far out
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
  const PanelAxes axes = panel_axes(f, 0, figure_layout(f));
  REQUIRE(axes.x_ticks.size() == 5);
  CHECK(axes.x_ticks[1].label == "0.5");
  CHECK(axes.x_ticks[3].label == "12");
  CHECK(axes.boundaries.empty());  // nothing found, nothing drawn
  // With a 4 KiB write unit: a line before each column at a multiple of it.
  HeatmapFigure found = f;
  found.panels[0].unit_bytes = 4096;
  const PanelAxes with_unit = panel_axes(found, 0, figure_layout(found));
  CHECK(with_unit.boundaries == std::vector<double>{1.5, 2.5, 3.5});
}

TEST_CASE("the first read grid of a run that re-read its written window does not claim the re-read's page") {
  SavedResult r = document("fresh.json", 1.0);
  SavedGrid again = r.grids[0];
  again.name = "read-written";
  r.grids.push_back(again);
  r.read_page.confidence = 0.998;
  CHECK(heatmap_figure({r}, {}).panels[0].verdict ==
        "read page 16 KiB (confidence 0.998), found in the read-written grid");
  HeatmapOptions reread;
  reread.grid = "read-written";
  CHECK(heatmap_figure({r}, reread).panels[0].verdict == "read page 16 KiB (confidence 0.998)");
}

TEST_CASE("read grids of a run whose re-read found no page either say the run's answer in the report's words") {
  SavedResult r = document("loop.json", 1.0);
  SavedGrid again = r.grids[0];
  again.name = "read-written";
  r.grids.push_back(again);
  HeatmapOptions reread;
  reread.grid = "read-written";
  // Not determined is not "no read page": a loop device's first grid said so.
  r.read_page = {std::nullopt, "undetermined", 0.0, std::nullopt, "rerun with --budget 40", std::nullopt, 0.0};
  CHECK(heatmap_figure({r}, {}).panels[0].verdict == "read page not determined (rerun with --budget 40)");
  CHECK(heatmap_figure({r}, reread).panels[0].verdict == "read page not determined (rerun with --budget 40)");
  // Ruled out: the reach the report states.
  r.read_page = {std::nullopt, "absent", 0.0, 131072, "", std::nullopt, 0.0};
  CHECK(heatmap_figure({r}, {}).panels[0].verdict == "no read page up to 128 KiB");
}

TEST_CASE("a read grid sits on a byte axis: each cell spans its column step, lines at unit multiples") {
  const HeatmapFigure f = heatmap_figure({document("a.json", 1.0)}, {});
  const HeatmapPanel& p = f.panels[0];
  const PanelAxes axes = panel_axes(f, 0, figure_layout(f));
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

namespace {

// A read grid of 512 B steps across 128 KiB with a 16 KiB page: a 4 KiB IO
// costs 100 µs, 150 µs when it straddles a page boundary, with a little
// alternating noise.
SavedResult paged_document(const std::string& file) {
  SavedResult r;
  r.file = file;
  r.model = file;
  r.read_page = {16384, "found", 0.998, std::nullopt, "", std::nullopt, 0.0};
  SavedGrid g;
  g.name = g.op = "read";
  g.sizes = {4096, 8192};
  for (uint64_t o = 0; o < 128 * 1024; o += 512) g.offsets.push_back(o);
  for (uint64_t size : g.sizes) {
    std::vector<double> row;
    for (size_t j = 0; j < g.offsets.size(); ++j) {
      const uint64_t o = g.offsets[j];
      const bool straddles = o / 16384 != (o + size - 1) / 16384;
      row.push_back((straddles ? 150.0 : 100.0) + static_cast<double>(size) / 1024 + (j % 2 ? 1.0 : -1.0));
    }
    g.median_us.push_back(row);
  }
  r.grids.push_back(g);
  return r;
}

}  // namespace

TEST_CASE("the default colour top leaves out cells far above the others of their request size") {
  SavedResult r = paged_document("a.json");
  HeatmapFigure clean = heatmap_figure({r}, {});
  CHECK(clean.colour_max == Approx(159));  // the largest cell: nothing far out
  CHECK(clipped_cells(clean).above == 0);
  // Outliers of 10-50x, as real drives have (a cell of 4 samples at 1,788 µs
  // beside 160-290 µs cells): the top stays where the page shows.
  auto& cells = r.grids[0].median_us;
  cells[0][3] = 1000;
  cells[0][100] = 5000;
  cells[1][40] = 3000;
  HeatmapFigure noisy = heatmap_figure({r}, {});
  CHECK(noisy.colour_max == Approx(159));
  const ClippedCells clipped = clipped_cells(noisy);
  CHECK(clipped.above == 3);
  CHECK(clipped.below == 0);
  CHECK(clipped.cells == 512);
  CHECK(colour_caption(noisy) ==
        "median latency (µs), scale from 103 µs, not zero\n≥ 159: 3 of 512 cells drawn in the top colour");
  const std::vector<AxisTick> ticks = colour_ticks(noisy);
  REQUIRE(ticks.size() >= 3);
  CHECK(ticks.front().label == "103");  // the start is marked with its number
  CHECK(ticks[1].at >= 103 + 5);        // and the next round tick is clear of it
  CHECK(ticks.back().label == "≥ 159");
  CHECK(ticks[ticks.size() - 2].at <= 159 - 15);  // a round tick half a step clear of the mark
  // A scale set by someone else (--range, a comparison's shared scale): the
  // marks follow the figure's range when drawn, not the one it was built with.
  noisy.colour_min = 120;
  noisy.colour_max = 2000;
  CHECK(clipped_cells(noisy).above == 2);
  // Below: the aligned cells (200 of the 4 KiB row, 136 of the 8 KiB one) but the three planted.
  CHECK(clipped_cells(noisy).below == (200 - 2) + (136 - 1));
  CHECK(colour_ticks(noisy).front().label == "≤ 120");
  CHECK(colour_caption(noisy).find("scale from 120 µs, not zero") != std::string::npos);
}

TEST_CASE("the default latency bottom is the fastest cell, and a cache hit far below its row is clipped") {
  SavedResult r = paged_document("a.json");
  const HeatmapFigure clean = heatmap_figure({r}, {});
  CHECK(clean.colour_min == Approx(103));  // 4 KiB aligned, less the noise
  CHECK(clipped_cells(clean).below == 0);
  // An aligned cell half its row's straddling ones is on the scale (the
  // aligned cells are that already); one at a tenth of its row is not.
  r.grids[0].median_us[1][0] = 60;
  CHECK(heatmap_figure({r}, {}).colour_min == 60);
  r.grids[0].median_us[1][0] = 12;
  const HeatmapFigure cached = heatmap_figure({r}, {});
  CHECK(cached.colour_min == Approx(103));
  CHECK(clipped_cells(cached).below == 1);
  CHECK(colour_ticks(cached).front().label == "≤ 103");
  // The relative scale starts at each row's fastest cell: zero.
  const HeatmapFigure relative = heatmap_figure({r}, {"read", HeatmapScale::above_fastest, false, std::nullopt, 0, 0});
  CHECK(relative.colour_min == 0);
}

TEST_CASE("a row with too few cells to judge keeps its largest; a flat row's noise is never far out") {
  SavedResult r = paged_document("a.json");
  r.grids[0].median_us[0] = std::vector<double>(256, 100.0);  // flat: no spread at all
  r.grids[0].median_us[0][9] = 240.0;                          // 2.4x: what a boundary can cost, not far out
  r.grids[0].median_us[1] = std::vector<double>(256, kNaN);
  r.grids[0].median_us[1][0] = 900.0;                          // a row of one cell: nothing to judge by
  CHECK(heatmap_figure({r}, {}).colour_max == 900);
  r.grids[0].median_us[1][0] = kNaN;
  CHECK(heatmap_figure({r}, {}).colour_max == 240);
  r.grids[0].median_us[0][9] = 260.0;  // 2.6x a flat row: far out
  CHECK(heatmap_figure({r}, {}).colour_max == 100);
}

TEST_CASE("throughput: fast outliers are clipped at the top, the scale from zero") {
  SavedResult r = paged_document("a.json");
  r.grids[0].median_us[1][5] = 2.0;  // a cell 70x faster than its row: 4096 MB/s
  const HeatmapFigure f = heatmap_figure({r}, {"read", HeatmapScale::throughput, false, std::nullopt, 0, 0});
  CHECK(f.colour_min == 0);
  CHECK(f.colour_max == Approx(8192.0 / 107));  // the row's fastest aligned cell
  CHECK(clipped_cells(f).above == 1);
}

TEST_CASE("folding pools each phase's cells with their median, one cell per slot") {
  HeatmapMatrix m;
  m.sizes = {4096};
  m.offsets = {0, 4096, 8192, 12288, 16384, 20480, 24576, 28672, 32768, 36864, 40960, 45056};
  m.cells = {{10, 20, 30, 40, 11, 21, 31, 41, 12, 999, kNaN, 42}};
  const FoldedMatrix f = fold_matrix(m, 16384);
  CHECK(f.matrix.offsets == std::vector<uint64_t>{0, 4096, 8192, 12288});
  CHECK(f.pooled == 3);
  REQUIRE(f.matrix.cells.size() == 1);
  CHECK(f.matrix.cells[0][0] == 11);
  CHECK(f.matrix.cells[0][1] == 21);    // 20, 21, 999: the slow cell does not move it
  CHECK(f.matrix.cells[0][2] == 30.5);  // 30, 31 (the third has no samples)
  CHECK(f.matrix.cells[0][3] == 41);
}

TEST_CASE("--fold: at the found unit, else at the best candidate named as one, else not at all") {
  HeatmapOptions fold{"read", HeatmapScale::absolute, true, std::nullopt, 0, 0};
  SavedResult r = paged_document("a.json");
  HeatmapFigure f = heatmap_figure({r}, fold);
  REQUIRE(f.panels[0].folded_at == 16384u);
  CHECK(f.panels[0].matrix.offsets.size() == 32);
  CHECK(f.panels[0].fold_pooled == 8);
  CHECK(f.panels[0].fold_note == "folded at the read page, 16 KiB");
  CHECK(panel_title(f, 0) == "a.json\nread page 16 KiB (confidence 0.998)\nfolded at the read page, 16 KiB");
  const PanelAxes axes = panel_axes(f, 0, figure_layout(f));
  CHECK(axes.x_high == 16);
  CHECK(axes.boundaries.empty());  // the panel's edges are the boundaries
  r.read_page = {std::nullopt, "undetermined", 0.0, std::nullopt, "rerun with --budget 120", 16384, 0.62};
  f = heatmap_figure({r}, fold);
  CHECK(f.panels[0].folded_at == 16384u);
  CHECK(f.panels[0].fold_note == "folded at 16 KiB: the best candidate (support 0.62), not a found read page");
  r.read_page.best_candidate_bytes.reset();
  f = heatmap_figure({r}, fold);
  CHECK_FALSE(f.panels[0].folded_at);
  CHECK(f.panels[0].matrix.offsets.size() == 256);
  CHECK(f.panels[0].fold_note == "not folded: no read page found and no candidate to fold at");
}

TEST_CASE("boundary lines closer than a few pixels are thinned to every Nth, and the label says so") {
  SavedResult r = paged_document("a.json");
  r.read_page.bytes = 4096;  // 31 lines across 128 KiB
  HeatmapFigure f = heatmap_figure({r}, {});
  FigureLayout layout = figure_layout(f);
  CHECK(layout.plot_width_px[0] == 768);  // 256 columns of 512 B, 3 px each
  PanelAxes axes = panel_axes(f, 0, layout);
  CHECK(axes.boundaries.size() == 15);  // every 2nd: 48 px apart
  CHECK(axes.boundaries[0] == 8);
  CHECK(axes.x_label.find("dashed: every 2nd read page boundary (each 8 KiB; the read page is 4 KiB)") !=
        std::string::npos);
  f.width_px = 700;  // narrower: every 4th
  layout = figure_layout(f);
  axes = panel_axes(f, 0, layout);
  CHECK(axes.boundaries.size() == 7);
  f.panels[0].unit_bytes = 16384;  // 7 lines 35 px apart even so: all drawn
  axes = panel_axes(f, 0, layout);
  CHECK(axes.boundaries.size() == 7);
  CHECK(axes.x_label.find("dashed: read page boundaries (every 16 KiB)") != std::string::npos);
}

TEST_CASE("side-by-side panels put the same request size on the same row") {
  SavedResult small = paged_document("512.json");
  SavedResult large = paged_document("4k.json");
  small.grids[0].sizes = {512, 4096};  // a 512 B drive's grid starts lower
  const HeatmapFigure f = heatmap_figure({small, large}, {});
  CHECK(f.row_sizes == std::vector<uint64_t>{512, 4096, 8192});
  const FigureLayout layout = figure_layout(f);
  const PanelAxes left = panel_axes(f, 0, layout), right = panel_axes(f, 1, layout);
  CHECK(left.row_y == std::vector<double>{0, 1});
  CHECK(right.row_y == std::vector<double>{1, 2});  // 4 KiB on the same row as on the left
  CHECK(right.y_ticks.size() == 3);
  CHECK(right.x_label.find("grey rows: sizes this grid did not time") != std::string::npos);
  CHECK(cell_boxes(f.panels[1], right).front().y_low == 0.5);
}

TEST_CASE("an asked image size shares the width among the panels, and one too small is refused") {
  HeatmapFigure f = heatmap_figure({paged_document("a.json"), paged_document("b.json")}, {});
  f.width_px = 1500;
  f.height_px = 600;
  const FigureLayout layout = figure_layout(f);
  CHECK(layout.width_px == 1500);
  CHECK(layout.height_px == 600);
  CHECK(layout.plot_width_px[0] + layout.plot_width_px[1] == 1500 - 2 * 105 - 170);
  f.width_px = 300;
  CHECK_THROWS_AS(figure_layout(f), Error);
}
