#include "cli/plot_chart_run.h"

#include <fmt/format.h>

#include "cli/plot_files.h"
#include "core/error.h"
#include "plot/charts.h"

namespace ssdprobe {
namespace {

// Options that shape the heatmap only: given with another picture they would
// be silently ignored, so they are refused. Looked up by name, so options
// the heatmap gains later are listed here without being declared yet.
constexpr const char* kHeatmapOnly[] = {"--grid", "--relative", "--throughput", "--range", "--fold", "--size"};

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
  check_plot_files(args);
  const ImageFormat format = plot_image_format(args);
  check_plot_outputs(options, args, format);
  const Chart chart = build_chart(read_plot_documents(args, GridDetail::none, ChartData::read), *kind);
  write_plot(options, args, render_chart_image(chart, format), format, chart_data_text(chart));
  return 0;
}

}  // namespace ssdprobe
