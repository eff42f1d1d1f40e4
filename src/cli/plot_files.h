// What every `ssdprobe plot` picture (the heatmap, each --picture chart) does
// with its files, in one place so they refuse and report alike: the image
// format, the documents read, no output over an input, the numbers file next
// to the image and the line saying what was written.
#pragma once

#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/plot_run.h"
#include "plot/gnuplot_run.h"
#include "report/saved_result.h"

namespace ssdprobe {

// Error(usage): --data with --no-data, or --output/--data naming one of the
// documents plotted.
void check_plot_files(const PlotArgs& args);

// --format, else the output's extension; Error(usage) for anything else.
ImageFormat plot_image_format(const PlotArgs& args);

// The documents, in order. A document that cannot be plotted is an unusable
// input (exit 3), like a missing target, whatever the reader's category.
std::vector<SavedResult> read_plot_documents(const PlotArgs& args, GridDetail detail, ChartData charts);

// Checks the image's and the numbers file's paths (the output door,
// core/output_file.h) before anything is drawn.
void check_plot_outputs(const Options& options, const PlotArgs& args, ImageFormat format);

// Writes the image and the numbers file (OUT.dat or --data, unless
// --no-data) through the output door and, unless -q, says "plot: wrote OUT
// (numbers: OUT.dat)".
void write_plot(const Options& options, const PlotArgs& args, const std::string& image, ImageFormat format,
                const std::string& numbers);

}  // namespace ssdprobe
