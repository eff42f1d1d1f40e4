#include "cli/plot_run.h"

#include "cli/compare_outputs.h"
#include "cli/plot_chart_run.h"

#include <fmt/format.h>

#include <cerrno>
#include <fstream>

#include "core/error.h"
#include "core/output.h"
#include "plot/heatmap_figure.h"
#include "plot/heatmap_render.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

ImageFormat chosen_format(const PlotArgs& args) {
  if (args.format.empty()) return image_format_for(args.output);
  if (args.format == "png") return ImageFormat::png;
  if (args.format == "svg") return ImageFormat::svg;
  throw Error(ErrorCategory::usage, fmt::format("invalid --format '{}': expected png or svg", args.format));
}

// A document that cannot be plotted is an unusable input (exit 3), like a
// missing target, whatever the reader's category.
SavedResult read_document(const std::string& file) {
  try {
    return read_saved_result(file, GridDetail::full);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::usage) throw;
    throw Error(ErrorCategory::target, e.what());
  }
}

void write_text(const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out) throw os_error("cannot write " + file, errno);
}

}  // namespace

CLI::App* add_plot_command(CLI::App& app, PlotArgs& args) {
  CLI::App* plot = app.add_subcommand(
      "plot", "Draw heatmaps of saved result documents (--json of earlier runs) with gnuplot: latency over request "
              "size x offset, one panel per document side by side on one colour scale");
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
  plot->add_option("--data", args.data,
                   "Where to write the matrices gnuplot drew, to check the numbers behind the colours "
                   "[default: OUT.dat next to the image, e.g. heat.png.dat]")
      ->type_name("FILE");
  plot->add_flag("--no-data", args.no_data, "Do not write the matrix file");
  add_picture_option(*plot, args);
  plot->footer(
      "\nExit codes: 0 drawn, 2 bad usage (option, unknown image extension), 3 a document that cannot be used "
      "(missing, not a result document, another schema version, no such grid: `info` documents have none), "
      "5 gnuplot not installed or failed, 1 internal error.\n");
  return plot;
}

int run_plot(const Options& options, const PlotArgs& args) {
  if (args.picture != "heatmap") return run_chart_plot(options, args);
  if (args.relative && args.throughput) {
    throw Error(ErrorCategory::usage, "--relative and --throughput are two different pictures: give one");
  }
  if (args.no_data && !args.data.empty()) throw Error(ErrorCategory::usage, "--data and --no-data contradict");
  for (const std::string& file : args.documents) {
    refuse_output_over_input({"--output", args.output}, file, "one of the documents plotted");
    refuse_output_over_input({"--data", args.data}, file, "one of the documents plotted");
  }
  const ImageFormat format = chosen_format(args);
  std::vector<SavedResult> documents;
  for (const std::string& file : args.documents) documents.push_back(read_document(file));
  HeatmapOptions heatmap;
  heatmap.grid = args.grid;
  heatmap.scale = args.relative     ? HeatmapScale::above_fastest
                  : args.throughput ? HeatmapScale::throughput
                                    : HeatmapScale::absolute;
  const HeatmapFigure figure = heatmap_figure(documents, heatmap);
  render_heatmap_file(figure, args.output, format);
  std::string said = fmt::format("plot: wrote {}", printable(args.output));
  if (!args.no_data) {
    const std::string data = args.data.empty() ? args.output + ".dat" : args.data;
    write_text(data, heatmap_data_text(figure));
    said += fmt::format(" (numbers: {})", printable(data));
  }
  if (!options.quiet) print_quietly(stdout, said + "\n");
  return 0;
}

}  // namespace ssdprobe
