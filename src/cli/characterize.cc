// The commands that run on a target (the main job, info, audit): fill in the
// default target, check the --json destination, hand the options to the run
// layer (run/runs.h), and render what it returns as text and/or JSON.
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/compare_outputs.h"
#include "cli/disk_table.h"
#include "cli/progress.h"
#include "cli/prometheus_output.h"
#include "cli/report_run.h"
#include "cli/terminal_width.h"
#include "core/error.h"
#include "core/output.h"
#include "device/sim_profile.h"
#include "device/whole_disks.h"
#include "report/enum_names.h"
#include "core/output_file.h"
#include "report/json_report.h"
#include "report/output_kinds.h"
#include "report/text_report.h"
#include "report/utf8.h"
#include "run/runs.h"

namespace ssdprobe {
namespace {

std::string default_target(const Options& options) {
  if (!options.target.empty()) return options.target;
  const std::string sim = std::string("sim:") + default_sim_name();
  if (!options.quiet) {
    print_quietly(stderr, fmt::format("no target given: characterizing the built-in simulated drive {} (--list-sims "
                                      "lists others; give /dev/nvme0n1 or a file to probe real storage)\n", sim));
  }
  return sim;
}

OutputSpec json_output(const Options& options) {
  return {options.json_path, "--json", result_document_kind(), options.force};
}

// The options with the target filled in, once the --json destination is
// known to be writable (a long run must not end in that error).
Options prepared(const Options& given) {
  Options options = given;
  options.target = default_target(given);
  // The document alone on standard output, as with '-' (not the text report
  // and the document mixed in one stream).
  for (std::string* path : {&options.json_path, &options.html_path, &options.prometheus_path}) {
    if (names_standard_output(*path)) *path = "-";
  }
  if (!options.json_path.empty()) check_output(json_output(options));
  check_html_destination(options);
  check_prometheus_destination(options);
  refuse_output_over_input({"--json", options.json_path}, options.target, "the target");
  refuse_output_over_input({"--json", options.json_path}, options.units_from, "the --units-from document");
  return options;
}

// The document as --json writes it. Paths, models and serials are bytes,
// not necessarily UTF-8: escaped where they are not (as write_json does), or
// dump() throws.
std::string document_text(const ResultDocument& doc) { return with_valid_utf8(to_json(doc)).dump(2) + "\n"; }

// Runs each write; one that fails does not keep the others from being
// written (a run's results must not be lost to one refused output). The
// first error is thrown once all were tried, the others are warnings.
void write_each(const std::vector<std::function<void()>>& writes) {
  std::optional<Error> first;
  for (const auto& write : writes) {
    try {
      write();
    } catch (const Error& e) {
      if (first) print_warning(e.what());
      if (!first) first = e;
    }
  }
  if (first) throw *first;
}

// The report never throws for a failed write (standard output closed or
// gone), and shows no raw control character from a path, model or serial.
// The --html page and the --prometheus metrics are made from the very text
// written as --json (what `ssdprobe report` reads back), so all agree.
void emit(const ResultDocument& doc, const Options& options,
          std::string (*render)(const ResultDocument&, size_t) = render_text) {
  const bool text_report = options.json_path != "-" && options.html_path != "-" && options.prometheus_path != "-";
  if (text_report) print_quietly(stdout, printable(render(doc, text_width_for(STDOUT_FILENO)), true));
  if (options.json_path.empty() && options.html_path.empty() && options.prometheus_path.empty()) return;
  const std::string json_text = document_text(doc);
  write_each({[&] {
                if (!options.json_path.empty()) write_output(json_output(options), json_text);
              },
              [&] {
                if (options.html_path.empty()) return;
                write_report_html(json_text, "the run's result document",
                                  {options.html_path, "--html", html_page_kind(), options.force});
              },
              [&] { write_prometheus(options, {monitoring_view(json_text)}, {}); }});
}

// A command that fails still tells Prometheus: ssdprobe_up 0 replaces the
// drive's last values, so a dashboard shows the failure, not stale numbers.
// Writing it must not hide the error that stopped the command.
template <typename Body>
int exporting_failure(const Options& options, const char* command, Body body) {
  try {
    return body();
  } catch (const Error& e) {
    if (!options.prometheus_path.empty() && e.category() != ErrorCategory::usage) {
      try {
        write_prometheus(options, {}, {failed_now(options.target, command, e.what())});
      } catch (const Error& write_error) {
        print_warning(fmt::format("the failure could not be written to --prometheus: {}", write_error.what()));
      }
    }
    throw;
  }
}

// A run that was stopped still shows what it finished; the error that
// stopped it then decides the exit code, also when the document itself
// could not be written (that is only a warning then), and when standard
// output is a pipe whose reader the same Ctrl-C ended (no SIGPIPE death).
[[noreturn]] void emit_stopped(const RunResult& result, const Options& options) {
  const SigpipeIgnored no_sigpipe;
  try {
    emit(result.doc, options);
  } catch (const Error& e) {
    print_warning(fmt::format("the partial result could not be written: {}", e.what()));
  }
  throw *result.stopped_by;
}

// Exit code 8 when --fail-on (or the command's default) names a severity
// that an audit finding or a mismatch reaches; 0 otherwise. Scripts use it
// as they use `parted align-check`'s exit status.
int findings_exit_code(const ResultDocument& doc, const std::string& fail_on, const char* default_level) {
  const std::string level = fail_on.empty() ? default_level : fail_on;
  if (level == "never") return 0;
  const Severity threshold = level == "warning" ? Severity::warning : Severity::error;
  const auto worst = worst_severity(doc.verdict, doc.mismatches);
  if (!worst || *worst < threshold) return 0;
  // Say which finding or mismatch decided it: a kernel mismatch can reach
  // --fail-on warning on a disk whose audit is clean.
  std::string why;
  for (const auto& f : doc.verdict.findings) {
    if (why.empty() && f.severity >= threshold) why = f.headline;
  }
  for (const auto& m : doc.mismatches) {
    if (why.empty() && m.severity >= threshold) why = fmt::format("{}: {}", m.field, m.message);
  }
  print_warning(fmt::format("exit {}: --fail-on {}: {} {}", kExitFindings, level, severity_name(*worst), why));
  return kExitFindings;
}

}  // namespace

int run_characterize(const Options& given) {
  const Options options = prepared(given);
  return exporting_failure(options, "run", [&] {
    ProgressLine progress(!options.quiet);
    RunResult result = characterize(options, progress);
    progress.finish();
    for (const std::string& note : options.replay_notes) result.doc.notes.push_back(note);
    if (result.stopped_by) emit_stopped(result, options);
    emit(result.doc, options);
    return findings_exit_code(result.doc, options.fail_on, "never");
  });
}

namespace {

// info and audit take a TARGET or --all-disks, one of the two: "info
// needs a TARGET (or --all-disks)", "--all-disks lists every disk: give it
// without a TARGET (/dev/sda)".
void check_target_or_all_disks(const Options& options, const char* command, const char* verb) {
  if (!options.all_disks && options.target.empty()) {
    throw Error(ErrorCategory::usage, fmt::format("{} needs a TARGET (or --all-disks)", command));
  }
  if (options.all_disks && !options.target.empty()) {
    throw Error(ErrorCategory::usage, fmt::format("--all-disks {} every disk: give it without a TARGET ({})", verb,
                                                  options.target));
  }
}

// info --all-disks: a table of every disk (cli/disk_table.h) instead of
// one document, so --json holds the rows and --prometheus has no place.
void check_info_all_disks_usage(const Options& options) {
  check_target_or_all_disks(options, "info", "lists");
  if (!options.all_disks) {
    if (!options.results_dir.empty()) {
      throw Error(ErrorCategory::usage, "--results fills the rows of info --all-disks: give --all-disks with it");
    }
    return;
  }
  if (!options.prometheus_path.empty() || !options.html_path.empty()) {
    throw Error(ErrorCategory::usage, "info --all-disks writes a table (--json: its rows); for metrics of every "
                                      "disk use audit --all-disks --prometheus");
  }
}

}  // namespace

int run_info(const Options& given) {
  check_info_all_disks_usage(given);
  if (given.all_disks) return info_all_disks(given);
  const Options options = prepared(given);
  return exporting_failure(options, "info", [&] {
    emit(info(options), options);
    return 0;
  });
}

namespace {

// audit --all-disks: each disk's report in turn, one --prometheus file for
// all of them. A disk that fails is reported and skipped; the exit code is
// then that failure's, else the worst --fail-on result.
int audit_all_disks(const Options& options) {
  const std::vector<std::string> disks = whole_disks();
  if (disks.empty()) throw Error(ErrorCategory::target, "--all-disks: /sys/block lists no whole disk");
  std::vector<SavedResult> documents;
  std::vector<FailedTarget> failures;
  int exit_code = 0, failure_code = 0;
  for (const std::string& disk : disks) {
    Options one = options;
    one.target = disk;
    try {
      const ResultDocument doc = audit(one);
      if (options.prometheus_path != "-") {
        print_quietly(stdout, printable(render_audit_text(doc, text_width_for(STDOUT_FILENO)), true) + "\n");
      }
      if (!options.prometheus_path.empty()) documents.push_back(monitoring_view(document_text(doc)));
      exit_code = std::max(exit_code, findings_exit_code(doc, options.fail_on, "error"));
    } catch (const Error& e) {
      if (e.category() == ErrorCategory::interrupted) throw;
      print_warning(fmt::format("audit {}: {}", disk, e.what()));
      failures.push_back(failed_now(disk, "audit", e.what()));
      if (failure_code == 0) failure_code = exit_code_for(e.category());
    }
  }
  write_prometheus(options, documents, failures);
  return failure_code != 0 ? failure_code : exit_code;
}

// --all-disks replaces TARGET and makes one document per disk, which one
// --json file cannot hold.
void check_all_disks_usage(const Options& options) {
  check_target_or_all_disks(options, "audit", "audits");
  if (!options.all_disks) return;
  if (!options.json_path.empty()) {
    throw Error(ErrorCategory::usage, "--json takes one document: with --all-disks use --prometheus, or audit each "
                                      "disk with its own --json");
  }
  if (!options.units_from.empty()) {
    throw Error(ErrorCategory::usage, "--units-from describes one drive: audit that disk alone with it");
  }
}

}  // namespace

int run_audit(const Options& given) {
  check_all_disks_usage(given);
  if (given.all_disks) {
    Options options = given;
    check_prometheus_destination(options);
    return audit_all_disks(options);
  }
  const Options options = prepared(given);
  return exporting_failure(options, "audit", [&] {
    const ResultDocument doc = audit(options);
    emit(doc, options, render_audit_text);
    return findings_exit_code(doc, options.fail_on, "error");
  });
}

}  // namespace ssdprobe
