#include "cli/plot_chart_run.h"

#include <fmt/format.h>

#include <cerrno>
#include <fstream>

#include "cli/compare_outputs.h"
#include "core/error.h"
#include "core/output.h"
#include "plot/charts.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

// Options that shape the heatmap only: given with another picture they would
// be silently ignored, so they are refused. Looked up by name, so options
// the heatmap gains later are listed here without being declared yet.
constexpr const char* kHeatmapOnly[] = {"--grid", "--relative", "--throughput", "--range", "--fold"};

void refuse_heatmap_options(const PlotArgs& args) {
  if (args.command == nullptr) return;
  for (const char* name : kHeatmapOnly) {
    const CLI::Option* option = args.command->get_option_no_throw(name);
    if (option != nullptr && option->count() > 0) {
      throw Error(ErrorCategory::usage,
                  fmt::format("{} shapes the heatmap only; --picture {} does not use it", name, args.picture));
    }
  }
}

ImageFormat chosen_format(const PlotArgs& args) {
  if (args.format.empty()) return image_format_for(args.output);
  if (args.format == "png") return ImageFormat::png;
  if (args.format == "svg") return ImageFormat::svg;
  throw Error(ErrorCategory::usage, fmt::format("invalid --format '{}': expected png or svg", args.format));
}

// A document that cannot be drawn is an unusable input (exit 3).
SavedResult read_document(const std::string& file) {
  try {
    return read_saved_result(file, GridDetail::none, ChartData::read);
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

void add_picture_option(CLI::App& plot, PlotArgs& args) {
  args.command = &plot;
  std::vector<std::string> names = {"heatmap"};
  for (ChartKind kind : all_chart_kinds()) names.emplace_back(chart_kind_name(kind));
  plot.add_option("--picture", args.picture,
                  "What to draw: heatmap (the grids, the default); queue-depth (IOPS and p99 latency per queue "
                  "depth, knee and plateau marked; writes too with a --write run); erase-block (the erase "
                  "stream's write latency over its offsets, stalls and the found period marked: --write runs); "
                  "misalignment (each audited start's cost ratio with its 95 % interval per op and request size: "
                  "runs whose audit timed starts); slc-cache (write speed over bytes written, the cache size "
                  "marked: --write runs)")
      ->type_name("NAME")
      ->check(CLI::IsMember(names));
}

int run_chart_plot(const Options& options, const PlotArgs& args) {
  const std::optional<ChartKind> kind = chart_kind_named(args.picture);
  if (!kind) throw Error(ErrorCategory::usage, fmt::format("unknown --picture '{}'", args.picture));
  refuse_heatmap_options(args);
  if (args.no_data && !args.data.empty()) throw Error(ErrorCategory::usage, "--data and --no-data contradict");
  for (const std::string& file : args.documents) {
    refuse_output_over_input({"--output", args.output}, file, "one of the documents plotted");
    refuse_output_over_input({"--data", args.data}, file, "one of the documents plotted");
  }
  const ImageFormat format = chosen_format(args);
  std::vector<SavedResult> documents;
  for (const std::string& file : args.documents) documents.push_back(read_document(file));
  const Chart chart = build_chart(documents, *kind);
  render_chart_file(chart, args.output, format);
  std::string said = fmt::format("plot: wrote {}", printable(args.output));
  if (!args.no_data) {
    const std::string data = args.data.empty() ? args.output + ".dat" : args.data;
    write_text(data, chart_data_text(chart));
    said += fmt::format(" (numbers: {})", printable(data));
  }
  if (!options.quiet) print_quietly(stdout, said + "\n");
  return 0;
}

}  // namespace ssdprobe
