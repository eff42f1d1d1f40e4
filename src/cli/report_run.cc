#include "cli/report_run.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/compare_outputs.h"
#include "cli/prometheus_output.h"
#include "core/error.h"
#include "core/output.h"
#include "html/report_html.h"
#include "core/output_file.h"
#include "report/json_report.h"
#include "report/output_kinds.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

// Two names for one file, also when neither exists yet (--json and --html
// of a run, both written at its end).
bool same_path(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec1, ec2;
  const fs::path ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
  if (!ec1 && !ec2 && ca == cb) return true;
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

}  // namespace

// The document's text, read by the same rules as every reader of documents
// (size limit, no FIFO, a result document): what cannot be used is exit 3.
std::string read_result_document_text(const std::string& file) {
  try {
    (void)read_saved_result(file, GridDetail::none);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::usage) throw;
    throw Error(ErrorCategory::target, e.what());
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || !text) throw Error(ErrorCategory::target, fmt::format("{}: cannot be read", file));
  return text.str();
}

CLI::App* add_report_command(CLI::App& app, ReportArgs& args) {
  CLI::App* report = app.add_subcommand(
      "report", "Make the one-run report of a saved result document (--json of an earlier run): one self-contained "
                "HTML page to attach to a ticket, with the verdict, reported vs measured, the audit, the "
                "recommendations, the pictures, the evidence and the run's context");
  report->add_option("RESULT.json", args.document, "The result document to report")->required();
  report->add_option("--html", args.html,
                     "Write the page to FILE ('-': standard output); no script, font or picture is fetched: it "
                     "opens offline")
      ->type_name("FILE");
  report->add_option("--prometheus", args.prometheus,
                     "Write the document as Prometheus metrics to FILE ('-': standard output), as --prometheus on "
                     "a run does (docs/monitoring.md)")
      ->type_name("FILE");
  report->footer(
      "\nThe page's sections and where each comes from: docs/report.md. Pictures need gnuplot; without it the page "
      "says so in their place (and a warning is printed).\n"
      "\nGive --html, --prometheus or both.\n"
      "\nExit codes: 0 written, 2 bad usage (an output that would overwrite the document or another result "
      "document), 3 a document that cannot be used (missing, unreadable, not a result document, another schema "
      "version), 4 permission denied writing the page, 1 internal error.\n");
  return report;
}

void check_html_destination(const Options& options) {
  const std::string& html = options.html_path;
  if (html.empty()) return;
  if (html == "-" && options.json_path == "-") {
    throw Error(ErrorCategory::usage, "--html - and --json - both want standard output: give one of them a FILE");
  }
  if (html != "-" && !options.json_path.empty() && options.json_path != "-" && same_path(html, options.json_path)) {
    throw Error(ErrorCategory::usage, fmt::format("--html {}: is the --json document's file; the page would "
                                                  "overwrite it (give the page its own name, e.g. report.html)", html));
  }
  check_output({html, "--html", html_page_kind(), options.force});
  refuse_output_over_input({"--html", html}, options.target, "the target");
  refuse_output_over_input({"--html", html}, options.units_from, "the --units-from document");
}

namespace {

// The page, with a warning for each picture that could not be drawn (the
// page says why in its place).
void write_page(const ReportHtml& report, const OutputSpec& output) {
  for (const std::string& missing : report.missing_pictures) {
    print_warning(fmt::format("--html {}: a picture is missing: {}", printable(output.path), printable(missing)));
  }
  write_output(output, report.page);
}

}  // namespace

void write_report_html(std::string_view document_text, const std::string& name, const OutputSpec& output) {
  write_page(report_html(document_text, name), output);
}

namespace {

// report --prometheus: the same metrics a run's --prometheus writes, from a
// saved document (an older minor version gives the series it has fields for).
Options metrics_output(const ReportArgs& args, bool force) {
  Options outputs;
  outputs.force = force;
  outputs.prometheus_path = args.prometheus;
  outputs.html_path = args.html;
  outputs.target = args.document;  // never written over
  return outputs;
}

void write_document_metrics(const std::string& text, const ReportArgs& args, const Options& options) {
  write_prometheus(metrics_output(args, options.force), {monitoring_view(text)}, {});
  if (!options.quiet && !names_stream(args.prometheus)) print_quietly(stdout, fmt::format("report: wrote {}\n", printable(args.prometheus)));
}

OutputSpec page_output(const ReportArgs& args, const Options& options) {
  return {args.html, "--html", html_page_kind(), options.force};
}

void check_report_outputs(const ReportArgs& args, const Options& options) {
  if (args.html.empty() && args.prometheus.empty()) {
    throw Error(ErrorCategory::usage, "report needs --html FILE, --prometheus FILE or both");
  }
  check_prometheus_destination(metrics_output(args, options.force));
  if (args.html.empty()) return;
  refuse_output_over_input({"--html", args.html}, args.document, "the document reported");
  check_output(page_output(args, options));
}

}  // namespace

int run_report(const Options& options, const ReportArgs& given) {
  ReportArgs args = given;  // /dev/stdout and /dev/fd/1 are '-': one output may take standard output
  for (std::string* path : {&args.html, &args.prometheus}) {
    if (names_standard_output(*path)) *path = "-";
  }
  check_report_outputs(args, options);
  const std::string text = read_result_document_text(args.document);
  if (!args.prometheus.empty()) write_document_metrics(text, args, options);
  if (args.html.empty()) return 0;
  ReportHtml report;
  try {
    report = report_html(text, args.document);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::usage) throw;
    throw Error(ErrorCategory::target, e.what());  // the document, not the command line, is at fault
  }
  write_page(report, page_output(args, options));
  if (!options.quiet && !names_stream(args.html)) {
    print_quietly(stdout, fmt::format("report: wrote {}\n", printable(args.html)));
  }
  return 0;
}

}  // namespace ssdprobe
