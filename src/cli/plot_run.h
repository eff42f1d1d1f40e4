// `ssdprobe plot RESULT.json... -o OUT.png|OUT.svg`: heatmaps of saved
// result documents (src/plot draws them). Its options only make sense here,
// so they are declared here rather than in the shared option table (which
// gives it -q, scope kPlot).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/options.h"

namespace ssdprobe {

struct PlotArgs {
  std::vector<std::string> documents;
  std::string output;         // OUT.png or OUT.svg
  std::string format;         // png or svg; empty: from the output's extension
  std::string grid = "read";  // read, write, read-written
  std::string data;           // the matrix file; empty: OUT + ".dat"
  bool no_data = false;
  bool relative = false;
  bool throughput = false;
  bool fold = false;
  std::string range;  // MIN:MAX; empty: the robust default
  std::string size;   // WxH pixels; empty: from the panels
  // --picture: heatmap (the grids above), or a chart of plot/charts.h
  // (queue-depth, erase-block, misalignment, slc-cache: cli/plot_chart_run.h).
  std::string picture = "heatmap";
  const CLI::App* command = nullptr;  // the parsed subcommand: which options were given
};

// Adds the `plot` subcommand and its options to `app`.
CLI::App* add_plot_command(CLI::App& app, PlotArgs& args);

// Reads the documents, draws the figure, writes the image and its matrix,
// and says where (unless options.quiet); throws Error (documents unusable:
// target; bad options: usage; gnuplot missing or failing: unsupported).
int run_plot(const Options& options, const PlotArgs& args);

}  // namespace ssdprobe
