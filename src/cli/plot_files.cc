#include "cli/plot_files.h"

#include <fmt/format.h>

#include <optional>

#include "cli/compare_outputs.h"
#include "core/error.h"
#include "core/output.h"
#include "core/output_file.h"
#include "report/output_kinds.h"

namespace ssdprobe {
namespace {

OutputSpec image_output(const Options& options, const PlotArgs& args, ImageFormat format) {
  return {args.output, "--output", format == ImageFormat::png ? png_kind() : svg_kind(), options.force};
}

// The numbers file, or nullopt with --no-data. A picture sent to a stream
// (-o -, /dev/fd/N) has no file name to put the numbers beside.
std::optional<OutputSpec> numbers_output(const Options& options, const PlotArgs& args) {
  if (args.no_data) return std::nullopt;
  if (args.data.empty() && names_stream(args.output)) {
    throw Error(ErrorCategory::usage, fmt::format("-o {}: the picture goes to a stream, so its numbers need a file of "
                                                  "their own: give --data FILE or --no-data", printable(args.output)));
  }
  const std::string path = args.data.empty() ? args.output + ".dat" : args.data;
  return OutputSpec{path, "--data", plot_numbers_kind(), options.force};
}

}  // namespace

void check_plot_files(const PlotArgs& args) {
  if (args.no_data && !args.data.empty()) throw Error(ErrorCategory::usage, "--data and --no-data contradict");
  for (const std::string& file : args.documents) {
    refuse_output_over_input({"--output", args.output}, file, "one of the documents plotted");
    refuse_output_over_input({"--data", args.data}, file, "one of the documents plotted");
  }
}

ImageFormat plot_image_format(const PlotArgs& args) {
  if (args.format.empty()) return image_format_for(args.output);
  if (args.format == "png") return ImageFormat::png;
  if (args.format == "svg") return ImageFormat::svg;
  throw Error(ErrorCategory::usage, fmt::format("invalid --format '{}': expected png or svg", args.format));
}

std::vector<SavedResult> read_plot_documents(const PlotArgs& args, GridDetail detail, ChartData charts) {
  std::vector<SavedResult> documents;
  for (const std::string& file : args.documents) {
    try {
      documents.push_back(read_saved_result(file, detail, charts));
    } catch (const Error& e) {
      if (e.category() != ErrorCategory::usage) throw;
      throw Error(ErrorCategory::target, e.what());
    }
  }
  return documents;
}

void check_plot_outputs(const Options& options, const PlotArgs& args, ImageFormat format) {
  check_output(image_output(options, args, format));
  if (const auto numbers = numbers_output(options, args)) check_output(*numbers);
}

void write_plot(const Options& options, const PlotArgs& args, const std::string& image, ImageFormat format,
                const std::string& numbers) {
  write_output(image_output(options, args, format), image);
  std::string said = fmt::format("plot: wrote {}", printable(args.output));
  if (const auto data = numbers_output(options, args)) {
    write_output(*data, fmt::format("{} behind {}\n", kPlotNumbersHeader, printable(args.output)) + numbers);
    said += fmt::format(" (numbers: {})", printable(data->path));
  }
  // Said on standard output only when the picture is not going there itself.
  if (!options.quiet && !names_stream(args.output)) print_quietly(stdout, said + "\n");
}

}  // namespace ssdprobe
