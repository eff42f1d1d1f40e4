#include "cli/compare_run.h"

#include <fmt/format.h>

#include <optional>

#include "cli/compare_outputs.h"
#include "compare/baseline_diff.h"
#include "compare/compare_render.h"
#include "compare/fleet_comparison.h"
#include "compare/fleet_files.h"
#include "compare/fleet_reader.h"
#include "compare/group_heatmap.h"
#include "compare/quirk_table.h"
#include "core/clock_text.h"
#include "core/error.h"
#include "core/output.h"
#include "core/output_file.h"
#include "report/output_kinds.h"
#include "ssdprobe_version.h"

namespace ssdprobe {
namespace {

// Each reader opens, reads and parses one document at a time. Warm, parsing
// is the work and two threads fill a small machine's cores; cold (a results
// share, or a page cache that dropped the fleet) each thread mostly waits on
// its read, so the disk sees only as many requests at once as there are
// readers. Eight keep a disk's queue busy while staying modest: each reader's
// parser holds buffers for about one document (a few MB), and extra threads
// cost nothing measurable warm (bench/compare_bench: cold and warm numbers).
constexpr unsigned kReaderThreads = 8;
unsigned reader_threads() { return kReaderThreads; }

}  // namespace

void bind_compare_arguments(CLI::App& command, CompareArguments& arguments) {
  command.add_option("RESULT", arguments.operands,
                     "Result documents (--json of earlier runs or of `ssdprobe info`), and directories whose *.json "
                     "files (at any depth) are read")
      ->required();
  command.add_option("--csv", arguments.csv_path, "Write one CSV row per group to FILE ('-': standard output)")
      ->type_name("FILE|-");
  command.add_option("--markdown", arguments.markdown_path, "Write the comparison as Markdown to FILE ('-': standard output)")
      ->type_name("FILE|-");
  command.add_option("--ndjson", arguments.ndjson_path,
                     "Write one flat JSON object per result document (per run, not per group) to FILE ('-': "
                     "standard output), one per line, for loading into a database; alone, it is the only output")
      ->type_name("FILE|-");
  command.add_option("--html", arguments.html_path,
                     "Write a self-contained HTML report to FILE: a summary table and one section per group with its "
                     "read-grid heatmap (needs gnuplot; without it the report says so)")
      ->type_name("FILE");
  command.add_flag("--shared-scale", arguments.shared_scale,
                   "With --html: draw every group's heatmap on one colour scale (the lowest bottom to the highest "
                   "top of all of them), so drives can be compared by colour; without it each group has its own "
                   "scale, which shows its own detail best");
  command.add_flag("--baseline", arguments.baseline,
                   "Compare runs of one drive instead of drives: the documents are put in the order they ran and each "
                   "is compared with the one before (firmware, units, kernel values, contradictions, findings, wear, "
                   "aligned read latencies against both runs' spread); as text, or to --json");
  command.add_flag("--quirks", arguments.quirks,
                   "Output the drive-quirk table (model + firmware: measured units against reported ones, only where "
                   "the runs agree) instead of the comparison: to --csv and/or --json, else as text");
}

namespace {

void check_compare_options(const Options& options, const CompareArguments& arguments) {
  if (arguments.html_path == "-") throw Error(ErrorCategory::usage, "--html needs a FILE (not '-')");
  if (arguments.baseline && (arguments.quirks || arguments.shared_scale || !arguments.csv_path.empty() ||
                             !arguments.markdown_path.empty() || !arguments.html_path.empty() ||
                             !arguments.ndjson_path.empty())) {
    throw Error(ErrorCategory::usage, "--baseline is written as text or JSON (--json); not with --quirks, --csv, "
                                      "--markdown, --html, --ndjson or --shared-scale");
  }
  if (arguments.quirks && (!arguments.markdown_path.empty() || !arguments.html_path.empty())) {
    throw Error(ErrorCategory::usage, "--quirks is written as CSV (--csv), JSON (--json) or text; not with --markdown "
                                      "or --html");
  }
  if (arguments.shared_scale && arguments.html_path.empty()) {
    throw Error(ErrorCategory::usage, "--shared-scale sets the colours of the --html report's heatmaps: give --html "
                                      "FILE with it");
  }
  const int to_stdout = (options.json_path == "-") + (arguments.csv_path == "-") + (arguments.markdown_path == "-") +
                        (arguments.ndjson_path == "-");
  if (to_stdout > 1) throw Error(ErrorCategory::usage, "only one of --json, --csv, --markdown, --ndjson can write to '-'");
  if (arguments.quirks && arguments.ndjson_path == "-" && options.json_path.empty() && arguments.csv_path.empty()) {
    throw Error(ErrorCategory::usage, "--quirks without --csv or --json prints its table on standard output, which "
                                      "--ndjson - takes: give --csv FILE or --json FILE for the table");
  }
}

// Every output of compare through the output door (core/output_file.h).
struct CompareOutputSpecs {
  OutputSpec json, csv, markdown, html, ndjson;
  std::vector<const OutputSpec*> given() const {
    std::vector<const OutputSpec*> out;
    for (const OutputSpec* o : {&json, &csv, &markdown, &html, &ndjson}) {
      if (!o->path.empty()) out.push_back(o);
    }
    return out;
  }
};

CompareOutputSpecs output_specs(const Options& options, const CompareArguments& arguments) {
  return {{options.json_path, "--json", comparison_json_kind(), options.force},
          {arguments.csv_path, "--csv", csv_kind(), options.force},
          {arguments.markdown_path, "--markdown", markdown_kind(), options.force},
          {arguments.html_path, "--html", html_page_kind(), options.force},
          {arguments.ndjson_path, "--ndjson", ndjson_kind(), options.force}};
}

// /dev/stdout and /dev/fd/1 are '-': each output that takes standard output
// takes the text report's place, and only one may.
void name_standard_output(Options& options, CompareArguments& arguments) {
  for (std::string* path : {&options.json_path, &arguments.csv_path, &arguments.markdown_path, &arguments.html_path,
                            &arguments.ndjson_path}) {
    if (names_standard_output(*path)) *path = "-";
  }
}

// --ndjson alone makes no comparison: the rows are written as the documents
// are read and nothing of them is kept (only the list of file names grows
// with the fleet: about 100 bytes a document). Any other output (the text report included) needs the comparison.
bool wants_comparison(const Options& options, const CompareArguments& arguments) {
  return arguments.ndjson_path.empty() || !options.json_path.empty() || !arguments.csv_path.empty() ||
         !arguments.markdown_path.empty() || !arguments.html_path.empty() || arguments.quirks;
}

// Reads every document once: its row goes to --ndjson as it is read, its
// summary is kept only for a comparison. Warnings name each skipped file.
FleetRead read_documents(const FleetFiles& files, const OutputSpec& ndjson, bool comparison) {
  std::optional<OutputFile> rows;
  if (!ndjson.path.empty()) rows.emplace(ndjson);
  FleetRead read;
  size_t compared = 0;
  stream_fleet(files.documents, reader_threads(), FleetReading{comparison, rows.has_value()}, [&](ReadDocument& d) {
    if (!d.warning.empty()) {
      print_warning(d.warning + ": skipped");
      read.warnings.push_back(std::move(d.warning));
      return;
    }
    ++compared;
    if (rows) rows->write(d.row);
    if (d.summary) read.documents.push_back(std::move(*d.summary));
  });
  if (compared == 0) {  // the rows' FILE.partial is removed with `rows`
    throw Error(ErrorCategory::target,
                files.documents.empty()
                    ? "compare: no result documents found (give RESULT.json files or directories holding *.json)"
                    : fmt::format("compare: none of the {} files could be compared (see the warnings above)",
                                  files.documents.size()));
  }
  if (rows) rows->commit();
  return read;
}

// --baseline: every result document read whole (its grids' spread sizes a
// latency change); a missing operand or a result document that cannot be
// read ends the command, since the comparison is of these runs and no
// other. Other files in a directory (a comparison, this command's own
// --json) are skipped with a warning.
int run_baseline(const Options& options, const FleetFiles& files, const OutputSpec& json) {
  if (!files.warnings.empty()) throw Error(ErrorCategory::usage, "compare --baseline: " + files.warnings.front());
  std::vector<SavedResult> runs;
  for (const std::string& file : files.documents) {
    if (!holds_result_document(file)) {
      print_warning(fmt::format("{}: not a result document: skipped", file));
      continue;
    }
    runs.push_back(read_saved_result(file, GridDetail::full));
  }
  const BaselineComparison comparison = compare_baseline(std::move(runs));
  if (!options.json_path.empty()) write_output(json, render_baseline_json(comparison));
  if (options.json_path != "-") print_quietly(stdout, render_baseline_text(comparison));
  return 0;
}

}  // namespace

int run_compare(const Options& given_options, const CompareArguments& given_arguments) {
  Options options = given_options;
  CompareArguments arguments = given_arguments;
  name_standard_output(options, arguments);
  check_compare_options(options, arguments);
  const CompareOutputSpecs out = output_specs(options, arguments);
  const FleetFiles files = find_fleet_files(arguments.operands);
  std::vector<CompareOutput> outputs;
  for (const OutputSpec* o : out.given()) outputs.push_back({o->option.c_str(), o->path});
  refuse_outputs_over_inputs(outputs, files.documents);
  for (const OutputSpec* o : out.given()) check_output(*o);
  if (arguments.baseline) return run_baseline(options, files, out.json);
  for (const std::string& w : files.warnings) print_warning(w);
  const bool make_comparison = wants_comparison(options, arguments);
  FleetRead read = read_documents(files, out.ndjson, make_comparison);
  if (!make_comparison) return 0;
  FleetComparison comparison = compare_fleet(read.documents);
  comparison.skipped = files.warnings;
  comparison.skipped.insert(comparison.skipped.end(), read.warnings.begin(), read.warnings.end());
  comparison.coverage.made_at = utc_now_text(kIso8601Utc);
  comparison.coverage.compared_by = SSDPROBE_VERSION;

  if (arguments.quirks) {
    const std::vector<QuirkRow> rows = quirk_table(comparison);
    if (!options.json_path.empty()) write_output(out.json, render_quirks_json(rows));
    if (!arguments.csv_path.empty()) write_output(out.csv, render_quirks_csv(rows));
    if (options.json_path.empty() && arguments.csv_path.empty()) print_quietly(stdout, render_quirks_text(rows));
    return 0;
  }
  if (!options.json_path.empty()) write_output(out.json, render_json(comparison));
  if (!arguments.csv_path.empty()) write_output(out.csv, render_csv(comparison));
  if (!arguments.markdown_path.empty()) write_output(out.markdown, render_markdown(comparison));
  if (!arguments.html_path.empty()) {
    const GroupHeatmaps heatmaps(comparison, arguments.shared_scale);
    const GroupPicture picture = [&heatmaps](const FleetGroup& group) { return heatmaps.html(group); };
    write_output(out.html, render_html(comparison, picture, heatmaps.scale_note()));
  }
  // The text report goes to standard output unless another output took it.
  if (options.json_path != "-" && arguments.csv_path != "-" && arguments.markdown_path != "-" &&
      arguments.ndjson_path != "-") print_quietly(stdout, render_text(comparison));
  return 0;
}

}  // namespace ssdprobe
