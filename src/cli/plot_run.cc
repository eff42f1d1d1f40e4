#include "cli/plot_run.h"

#include "cli/plot_chart_run.h"
#include "cli/plot_files.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <tuple>

#include "core/error.h"
#include "core/output.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_render.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

// "0:300" -> {0, 300}; Error(usage) naming what is wrong.
ColourRange parse_range(const std::string& text) {
  const size_t colon = text.find(':');
  auto number = [&](const std::string& part, const char* which) {
    char* end = nullptr;
    const double v = part.empty() ? NAN : std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(v)) {
      throw Error(ErrorCategory::usage, fmt::format("invalid --range '{}': {} '{}' is not a number (expected MIN:MAX, "
                                                    "e.g. 0:300)", printable(text), which, printable(part)));
    }
    return v;
  };
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) {
    throw Error(ErrorCategory::usage,
                fmt::format("invalid --range '{}': expected MIN:MAX, two numbers (e.g. 0:300)", printable(text)));
  }
  const ColourRange range{number(text.substr(0, colon), "MIN"), number(text.substr(colon + 1), "MAX")};
  if (!(range.min < range.max)) {
    throw Error(ErrorCategory::usage, fmt::format("invalid --range '{}': MIN ({}) must be below MAX ({})",
                                                  printable(text), range.min, range.max));
  }
  if (range.max - range.min <= 1e-9 * std::max(std::fabs(range.min), std::fabs(range.max))) {
    throw Error(ErrorCategory::usage, fmt::format("invalid --range '{}': MIN and MAX are too close to tell "
                                                  "colours apart", printable(text)));
  }
  return range;
}

// "1600x600" -> {1600, 600}; Error(usage) naming what is wrong. The layout
// refuses a size too small for the panels (plot/heatmap_layout.h).
std::pair<int, int> parse_size(const std::string& text) {
  const size_t x = text.find_first_of("xX");
  auto pixels = [&](const std::string& part) {
    const bool digits = !part.empty() && part.size() <= 5 && part.find_first_not_of("0123456789") == std::string::npos;
    const int v = digits ? std::stoi(part) : 0;
    if (v < 1 || v > 20000) {
      throw Error(ErrorCategory::usage, fmt::format("invalid --size '{}': expected WxH in pixels, each 1 to 20000 "
                                                    "(e.g. 1600x600)", printable(text)));
    }
    return v;
  };
  if (x == std::string::npos) pixels("");
  return {pixels(text.substr(0, x)), pixels(text.substr(x + 1))};
}

}  // namespace

CLI::App* add_plot_command(CLI::App& app, PlotArgs& args) {
  CLI::App* plot = app.add_subcommand(
      "plot", "Draw pictures of saved result documents (--json of earlier runs) with gnuplot: heatmaps of latency "
              "over request size x offset, one panel per document side by side on one colour scale; or, with "
              "--picture, the queue-depth curve, the erase stream, the misalignment costs or the SLC cache fill");
  plot->add_option("RESULT.json", args.documents, "Result documents to draw (one panel each, left to right)")
      ->required();
  plot->add_option("-o,--output", args.output, "The image to write: OUT.png or OUT.svg")->required()
      ->type_name("FILE");
  plot->add_option("--format", args.format, "png or svg, whatever the output's extension [default: from it]")
      ->type_name("png|svg");
  plot->add_option("--grid", args.grid,
                   "Which grid: read, write (needs a --write run), write-in-cache (a --write run that found an "
                   "SLC cache coming back after idling) or read-written [default: read]")
      ->type_name("NAME")
      ->check(CLI::IsMember({"read", "write", "write-in-cache", "read-written"}));
  plot->add_flag("--relative", args.relative,
                 "Colour = latency above the fastest offset of the same request size, instead of the latency");
  plot->add_flag("--throughput", args.throughput,
                 "Colour = throughput in MB/s (request size / median latency): aligned IOs show as bright columns");
  plot->add_flag("--fold", args.fold,
                 "Offsets modulo the unit found (read page; write unit for --grid write), each cell the median of the "
                 "grid's cells at that offset in every unit-sized slot: the step where IOs start to cross the unit "
                 "boundary, with all the data behind it. No unit found: folds at the best candidate the document "
                 "names and says so in the panel's title; none either: that panel is drawn unfolded, its title says "
                 "why");
  plot->add_option("--range", args.range,
                   "Colour scale from MIN to MAX (in the picture's unit: us, or MB/s with --throughput); cells "
                   "outside it are drawn in the end colour, marked >= / <= on the colour bar and counted beside it "
                   "[default: to the largest cell that is not far out among the cells of its request size, from the "
                   "smallest that is not far out (latency, marked on the colour bar) or from zero (--relative, "
                   "--throughput); docs/usage.md]")
      ->type_name("MIN:MAX");
  plot->add_option("--size", args.size, "Image size in pixels [default: from the panels' rows and columns]")
      ->type_name("WxH");
  plot->add_option("--data", args.data,
                   "Where to write the matrices gnuplot drew, to check the numbers behind the colours "
                   "[default: OUT.dat next to the image, e.g. heat.png.dat]")
      ->type_name("FILE");
  plot->add_flag("--no-data", args.no_data, "Do not write the matrix file");
  add_picture_option(*plot, args);
  plot->footer(
      "\nExit codes: 0 drawn, 2 bad usage (option, unknown image extension, --range not MIN < MAX, --size not "
      "WxH or too small for the panels), 3 a document that cannot be used "
      "(missing, not a result document, another schema version, no such grid: `info` documents have none; no data "
      "for the --picture asked: no --write, no audit), "
      "5 gnuplot not installed or failed, 1 internal error.\n");
  return plot;
}

int run_plot(const Options& options, const PlotArgs& args) {
  if (args.picture != "heatmap") return run_chart_plot(options, args);
  if (args.relative && args.throughput) {
    throw Error(ErrorCategory::usage, "--relative and --throughput are two different pictures: give one");
  }
  check_plot_files(args);
  const ImageFormat format = plot_image_format(args);
  check_plot_outputs(options, args, format);
  HeatmapOptions heatmap;
  heatmap.grid = args.grid;
  heatmap.fold = args.fold;
  if (!args.range.empty()) heatmap.range = parse_range(args.range);
  if (!args.size.empty()) std::tie(heatmap.width_px, heatmap.height_px) = parse_size(args.size);
  heatmap.scale = args.relative     ? HeatmapScale::above_fastest
                  : args.throughput ? HeatmapScale::throughput
                                    : HeatmapScale::absolute;
  const HeatmapFigure figure =
      heatmap_figure(read_plot_documents(args, GridDetail::full, ChartData::skip), heatmap);
  write_plot(options, args, render_heatmap_image(figure, format), format, heatmap_data_text(figure));
  return 0;
}

}  // namespace ssdprobe
