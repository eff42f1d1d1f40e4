// `ssdprobe compare RESULT.json… | DIR…`: many saved result documents (a
// fleet's shared results folder) grouped by model + firmware + capacity, with
// how far their runs agree (compare/, docs/compare.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/options.h"

namespace ssdprobe {

// What only `compare` takes: its operands and its output options (--json
// and -q come from the option table, scope kCompare).
struct CompareArguments {
  std::vector<std::string> operands;  // documents and directories
  std::string csv_path, markdown_path, html_path;
  std::string ndjson_path;  // --ndjson: one row per document, written as each is read
  bool quirks = false;
  bool baseline = false;      // --baseline: what changed on one drive between its runs
  bool shared_scale = false;  // --shared-scale: one colour scale for every group's heatmap (--html)
};

// Adds the operands and the compare-only options to the subcommand.
void bind_compare_arguments(CLI::App& command, CompareArguments& arguments);

// Exit 0 when at least one document was compared (skipped files are warned
// about on standard error); Error(target) when none could be.
int run_compare(const Options& options, const CompareArguments& arguments);

}  // namespace ssdprobe
