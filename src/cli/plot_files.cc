#include "cli/plot_files.h"

#include <fmt/format.h>

#include <cerrno>
#include <fstream>

#include "cli/compare_outputs.h"
#include "core/error.h"
#include "core/output.h"

namespace ssdprobe {
namespace {

void write_text(const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out) throw os_error("cannot write " + file, errno);
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

void finish_plot(const Options& options, const PlotArgs& args, const std::string& numbers) {
  std::string said = fmt::format("plot: wrote {}", printable(args.output));
  if (!args.no_data) {
    const std::string data = args.data.empty() ? args.output + ".dat" : args.data;
    write_text(data, numbers);
    said += fmt::format(" (numbers: {})", printable(data));
  }
  if (!options.quiet) print_quietly(stdout, said + "\n");
}

}  // namespace ssdprobe
