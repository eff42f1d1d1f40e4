// `ssdprobe plot --picture NAME` for the pictures other than the heatmap
// (plot/charts.h): the option, and running it. Kept apart from plot_run.cc,
// which is the heatmap's.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/options.h"
#include "cli/plot_run.h"

namespace ssdprobe {

// Adds --picture to the plot subcommand (and remembers the subcommand in
// args, to tell which heatmap-only options were given).
void add_picture_option(CLI::App& plot, PlotArgs& args);

// Reads the documents (with their chart data), draws the picture, writes the
// image and its numbers (OUT.dat unless --no-data), says where unless quiet.
// Throws Error: usage (a heatmap-only option with another picture, bad
// format), target (a document without the data, naming it and what is
// missing), unsupported (gnuplot missing or failing).
int run_chart_plot(const Options& options, const PlotArgs& args);

}  // namespace ssdprobe
