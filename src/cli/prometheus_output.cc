#include "cli/prometheus_output.h"

#include <fmt/format.h>

#include <chrono>

#include "cli/compare_outputs.h"
#include "core/error.h"
#include "core/output.h"
#include "core/output_file.h"
#include "report/output_kinds.h"

namespace ssdprobe {
namespace {

OutputSpec metrics_output(const Options& options) {
  return {options.prometheus_path, "--prometheus", prometheus_kind(), options.force};
}

}  // namespace

void check_prometheus_destination(const Options& options) {
  const std::string& path = options.prometheus_path;
  if (path.empty()) return;
  if (path == "-" && (options.json_path == "-" || options.html_path == "-")) {
    throw Error(ErrorCategory::usage, "--prometheus - and another output to '-' both want standard output: give one "
                                      "of them a FILE");
  }
  check_output(metrics_output(options));
  refuse_output_over_input({"--prometheus", path}, options.target, "the target");
  refuse_output_over_input({"--prometheus", path}, options.json_path, "the --json document");
  refuse_output_over_input({"--prometheus", path}, options.units_from, "the --units-from document");
  if (path != "-" && !path.ends_with(".prom")) {
    print_warning(fmt::format("--prometheus {}: node_exporter's textfile collector reads only files named *.prom",
                              printable(path)));
  }
}

SavedResult monitoring_view(std::string_view document_json) {
  return parse_saved_result(document_json, "the result document", GridDetail::none, ChartData::read);
}

void write_prometheus(const Options& options, const std::vector<SavedResult>& documents,
                      const std::vector<FailedTarget>& failures) {
  if (options.prometheus_path.empty()) return;
  write_output(metrics_output(options), render_prometheus(documents, failures));
}

FailedTarget failed_now(const std::string& target, const std::string& command, const std::string& error_text) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return {target, command, error_text, std::chrono::duration<double>(now).count()};
}

}  // namespace ssdprobe
