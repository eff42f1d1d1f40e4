// `ssdprobe report RESULT.json --html FILE`: the one-run report page of a
// saved result document (src/html makes it), or its Prometheus metrics
// (--prometheus FILE); and the same page for
// `--html FILE` on a run, made from the very text the run writes as --json.
// Its options only make sense here, so they are declared here (the shared
// table gives it -q, scope kReport).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "cli/options.h"
#include "core/output_file.h"

namespace ssdprobe {

struct ReportArgs {
  std::string document;  // RESULT.json
  std::string html;      // FILE, or "-" for standard output; empty: no page
  std::string prometheus;  // --prometheus FILE: the document as metrics; empty: none
};

// Adds the `report` subcommand and its options to `app`.
CLI::App* add_report_command(CLI::App& app, ReportArgs& args);

// Reads the document and writes its page; says where unless options.quiet.
// Throws Error: target (exit 3) for a document that cannot be used, usage
// for an output that would overwrite an input or a result document.
int run_report(const Options& options, const ReportArgs& args);

// A saved result document's text, read by the same rules as every reader of
// documents (size limit, no FIFO, a result document of this schema's major
// version): what cannot be used is Error(target), exit 3.
std::string read_result_document_text(const std::string& file);

// Before a run's work starts: --html's destination can be written (the
// output door, core/output_file.h) and is not the --json document or the target.
void check_html_destination(const Options& options);

// Writes the page of a document's JSON text through `output` ("-":
// standard output); warns on standard error for each picture that could not be drawn
// (the page says why in its place). `name` stands for the document in messages.
void write_report_html(std::string_view document_text, const std::string& name, const OutputSpec& output);

}  // namespace ssdprobe
