#include "cli/commands.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <new>

#include "cli/compare_run.h"
#include "cli/fio_jobs_run.h"
#include "cli/help_output.h"
#include "cli/plot_run.h"
#include "cli/replay.h"
#include "cli/report_run.h"
#include "cli/terminal_width.h"
#include "cli/version_text.h"
#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "device/sim_profile.h"
#include "core/output_file.h"
#include "report/output_kinds.h"
#include "report/utf8.h"
#include "report/sims_json.h"
#include "run/runs.h"

namespace ssdprobe {
namespace {

constexpr const char* kDescription =
    "ssdprobe: find out how a drive really wants to be addressed.\n\n"
    "Times O_DIRECT reads over an offset x size grid to find the effective NAND read page (with a\n"
    "confidence, or 'not determined'), compares it with what the kernel reports, and recommends\n"
    "partition offsets and mkfs/LVM commands. Read-only unless --write: then it also finds the write\n"
    "unit and the erase block, inside a window whose content it saves first and restores after.\n\n"
    "TARGET is a block device (/dev/nvme0n1), a partition (/dev/sda2), a regular file on a filesystem\n"
    "that supports O_DIRECT, or a simulated drive sim:NAME (see --list-sims). A bare `ssdprobe`, with\n"
    "no TARGET and no options, runs the built-in simulated drive; with options, name the TARGET.\n";

constexpr const char* kFooter =
    "\nExit codes: 0 ok, 2 bad usage (option, size or region; an output path that is a device, FIFO\n"
    "or link, or another kind of file: --force), 3 unusable target (missing, directory, character\n"
    "device, too small, unknown sim:), 4 permission denied, 5 not supported (O_DIRECT, io_uring), 6 IO\n"
    "error while probing or writing an output (standard output too), 7 refused for safety, 8 findings\n"
    "at --fail-on's severity (audit: an error by default), 130 interrupted (written content restored),\n"
    "1 internal error.\n"
    "Sizes accept 4096, 4k, 16KiB, 1M, 2GiB (binary units).\n";

// Never throws, whatever state standard error is in (a terminal that hung
// up, a closed pipe): the exit code must still say what happened.
int print_error(const Error& e) {
  print_quietly(stdout, "");  // what the report printed goes first
  print_quietly(stderr, fmt::format("ssdprobe: error: {}\n", printable(e.what(), true)));
  return exit_code_for(e.category());
}

}  // namespace

int run_list_sims(const std::string& json_path, bool force) {
  if (!json_path.empty()) {
    write_output({json_path, "--json", sims_list_kind(), force}, with_valid_utf8(sims_json()).dump(2) + "\n");
    return 0;
  }
  auto size_or_none = [](std::optional<uint64_t> v) { return v ? format_size(*v) : std::string("none"); };
  std::string text = fmt::format("{:<20} {:>7} {:>10} {:>10} {:>12}  {}\n", "NAME", "SECTOR", "READ_PAGE",
                                 "WRITE_UNIT", "ERASE_BLOCK", "DESCRIPTION");
  for (const auto& p : sim_profiles()) {
    const auto erase = p.erase_stall_us > 0 ? std::optional<uint64_t>(p.erase_block) : std::nullopt;
    text += fmt::format("{:<20} {:>7} {:>10} {:>10} {:>12}  {}{}\n", "sim:" + p.name, format_size(p.logical_block),
                        size_or_none(p.expected_read_page()), size_or_none(p.expected_write_unit()),
                        size_or_none(erase), p.description, p.name == default_sim_name() ? " (default)" : "");
  }
  print_quietly(stdout, text);
  return 0;
}

int run_restore(const Options& options) {
  print_quietly(stdout, printable(restore_from_journal(options), true) + "\n");
  return 0;
}

namespace {

// Every command's parser and the raw options it collects.
struct CommandLine {
  CLI::App app{kDescription, "ssdprobe"};
  RawOptions main_raw, info_raw, restore_raw, audit_raw, plot_raw, compare_raw, report_raw, fio_jobs_raw;
  bool list_sims = false;
  CLI::App* info = nullptr;
  CLI::App* audit = nullptr;
  CLI::App* restore = nullptr;
  CLI::App* plot = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* report = nullptr;
  CLI::App* fio_jobs = nullptr;
  PlotArgs plot_args;
  FioJobsArgs fio_jobs_args;
  ReportArgs report_args;
  CompareArguments compare_args;
  GeneratedOutputs generated;
  std::vector<std::string> argv;  // as run: the document records it
};

CLI::App* add_target_command(CLI::App& app, RawOptions& raw, OptionScope scope, const char* name, const char* help,
                             const char* positional, const char* positional_help, bool required = true) {
  CLI::App* command = app.add_subcommand(name, help);
  bind_options(*command, raw, scope);
  command->add_option(positional, raw.target, positional_help)->required(required);
  command->footer(kFooter);
  return command;
}

void add_compare_command(CommandLine& c) {
  c.compare = c.app.add_subcommand(
      "compare", "Compare many result documents (a fleet's results folder): grouped by model, firmware and capacity, "
                 "how far the runs agree on each unit, key latencies, the drive-quirk table");
  bind_options(*c.compare, c.compare_raw, kCompare);
  bind_compare_arguments(*c.compare, c.compare_args);
  c.compare->footer(
      "\nThe groups, the agreement rule and every output's shape: docs/compare.md.\n"
      "\nExit codes: 0 at least one document compared (unusable ones are skipped with a warning naming the file),\n"
      "2 bad usage, 3 no document could be used, 4 permission denied writing an output, 1 internal error.\n");
}

void build_command_line(CommandLine& c) {
  c.app.footer(kFooter);
  c.app.set_version_flag("--version", version_text());
  bind_options(c.app, c.main_raw, kCharacterize);
  c.app.add_option("TARGET", c.main_raw.target, "Device, partition, file or sim:NAME to characterize");
  c.app.add_flag("--list-sims", c.list_sims, "List the simulated drives and exit");
  c.info = add_target_command(c.app, c.info_raw, kInfo, "info",
                              "Report identity and reported geometry without timing any IO (--all-disks: a table of "
                              "every disk)", "TARGET", "Device, partition, file or sim:NAME (none with --all-disks)",
                              false);
  c.audit = add_target_command(
      c.app, c.audit_raw, kAudit, "audit",
      "Check the partitions, md RAID, LVM and filesystems already on a disk against its block sizes, without timing "
      "any IO (the main job also runs this audit, against the measured units); on a file or directory of a mounted "
      "filesystem, where each file's data lies on the disk (its extents, FIEMAP): the share misaligned to 4 KiB, "
      "the read page and the write unit, and the fix",
      "TARGET", "Disk, partition, disk image file (a partition table or filesystem at its start), or a file or "
      "directory on a mounted filesystem (none with --all-disks)", false);
  c.restore = add_target_command(c.app, c.restore_raw, kRestore, "restore",
                                 "Put back what an interrupted --write run saved, verify it, and delete the journal "
                                 "(with --forget: drop a journal that is gone from the index of pending journals)",
                                 "JOURNAL", "A journal file (*.ssdpj) named by ssdprobe");
  c.plot = add_plot_command(c.app, c.plot_args);
  bind_options(*c.plot, c.plot_raw, kPlot);
  c.report = add_report_command(c.app, c.report_args);
  bind_options(*c.report, c.report_raw, kReport);
  c.fio_jobs = add_fio_jobs_command(c.app, c.fio_jobs_args);
  bind_options(*c.fio_jobs, c.fio_jobs_raw, kFioJobs);
  add_compare_command(c);
  // After every subcommand: help, man page and completion walk all of them.
  add_generated_outputs(c.app, c.generated);
  configure_help(c.app, text_width_for(STDOUT_FILENO));
  // Parser errors look like every other error: "ssdprobe: error: ...".
  c.app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return fmt::format("ssdprobe: error: {}\nRun with --help for more information.\n", printable(e.what(), true));
  });
}

// --help and --version exit 0; any other parse error exits 2, and
// `ssdprobe sim:x info` (the target taken as the main command's, so the
// subcommand says it has none) is told where the target belongs.
int parse_failure(CommandLine& c, const CLI::ParseError& e) {
  if (e.get_exit_code() == 0) return c.app.exit(e);
  for (const CLI::App* sub : {c.info, c.audit, c.restore}) {
    if (sub->parsed() && !c.main_raw.target.empty()) {
      return print_error(Error(ErrorCategory::usage,
                               fmt::format("`{}` must come before its target: ssdprobe {} [OPTIONS] {}",
                                           sub->get_name(), sub->get_name(), c.main_raw.target)));
    }
  }
  c.app.exit(e);
  return exit_code_for(ErrorCategory::usage);
}

// The long name of the option stored under `key` ("--json").
std::string option_name(const std::string& key) {
  for (const OptionSpec& spec : option_table()) {
    if (spec.json_key != key) continue;
    const std::string names = spec.names;
    return names.substr(names.find("--") == std::string::npos ? 0 : names.find("--"));
  }
  return key;
}

// A value that may be the target the user meant: a path that exists, a
// simulated drive, a device node.
bool may_be_target(const std::string& value) {
  struct stat st {};
  return value.starts_with("sim:") || value.starts_with("/dev/") || ::stat(value.c_str(), &st) == 0;
}

// `ssdprobe --json victim.img` (the target forgotten) would run the built-in
// simulated drive and write its document over victim.img. A bare
// `ssdprobe` is the demo; with options, the target must be named.
void refuse_options_without_target(const RawOptions& raw) {
  if (!raw.target.empty() || raw.values.empty() || raw.values.count("replay_of")) return;
  std::string taken, given;
  for (const auto& [key, value] : raw.values) {
    given += (given.empty() ? "" : ", ") + option_name(key);
    if (raw.given.count(key) && taken.empty() && may_be_target(value)) {
      taken = fmt::format("; did {} take the target as its value ({} {})?", option_name(key), option_name(key),
                          printable(value));
    }
  }
  throw Error(ErrorCategory::usage,
              fmt::format("no TARGET given, but options were ({}){} Give the target after the options "
                          "(ssdprobe [OPTIONS] TARGET); for the built-in simulated drive, name it: sim:{}",
                          given, taken.empty() ? "." : taken, default_sim_name()));
}

// A failed or short write to standard output (a full disk, `> /dev/full`,
// a closed pipe) left the user an incomplete report or document: exit 6,
// once the command has done everything else (a --write run has restored its
// window by then). An error already being reported keeps its own code; a
// finding's 8 gives way, since the findings themselves were not delivered.
int checked_exit(int code) {
  print_quietly(stdout, "");  // flushes what is buffered, remembering a failure
  const auto failure = standard_output_failure();
  if (!failure) return code;
  print_quietly(stderr, fmt::format("ssdprobe: error: writing to standard output failed ({}): what it shows is "
                                    "incomplete\n", *failure));
  return code == 0 || code == 8 ? exit_code_for(ErrorCategory::io) : code;
}

// Options before a subcommand are carried into it (or refused), then the
// parsed command runs.
int dispatch(CommandLine& c) {
  const auto resolve = [&c](const RawOptions& raw, OptionScope scope) {
    Options options = resolve_options(raw, scope);
    options.command_line = c.argv;
    return options;
  };
  if (c.list_sims && c.main_raw.values.count("replay_of")) {
    throw Error(ErrorCategory::usage, "--replay runs a document's options again; --list-sims runs nothing: give one");
  }
  if (c.list_sims) {
    const Options options = resolve(c.main_raw, kCharacterize);
    return run_list_sims(options.json_path, options.force);
  }
  if (c.plot->parsed()) {
    carry_options(c.main_raw, c.plot_raw, kPlot, "plot");  // -q; refuses the table's other options
    return run_plot(resolve(c.plot_raw, kPlot), c.plot_args);
  }
  if (c.report->parsed()) {
    carry_options(c.main_raw, c.report_raw, kReport, "report");  // -q; refuses the table's other options
    return run_report(resolve(c.report_raw, kReport), c.report_args);
  }
  if (c.fio_jobs->parsed()) {
    carry_options(c.main_raw, c.fio_jobs_raw, kFioJobs, "fio-jobs");  // -q; refuses the table's other options
    return run_fio_jobs(resolve(c.fio_jobs_raw, kFioJobs), c.fio_jobs_args);
  }
  if (c.compare->parsed()) {
    carry_options(c.main_raw, c.compare_raw, kCompare, "compare");
    return run_compare(resolve(c.compare_raw, kCompare), c.compare_args);
  }
  if (c.info->parsed()) {
    carry_options(c.main_raw, c.info_raw, kInfo, "info");
    return run_info(resolve(c.info_raw, kInfo));
  }
  if (c.audit->parsed()) {
    carry_options(c.main_raw, c.audit_raw, kAudit, "audit");
    return run_audit(resolve(c.audit_raw, kAudit));
  }
  if (c.restore->parsed()) {
    carry_options(c.main_raw, c.restore_raw, kRestore, "restore");
    return run_restore(resolve(c.restore_raw, kRestore));
  }
  refuse_options_without_target(c.main_raw);
  std::vector<std::string> replay_notes;
  if (c.main_raw.values.count("replay_of")) replay_notes = apply_replay(c.main_raw);
  Options options = resolve(c.main_raw, kCharacterize);
  options.replay_notes = replay_notes;
  for (size_t i = 0; i < replay_notes.size(); ++i) {  // the first says what was replayed; -q leaves only it out
    if (i > 0 || !options.quiet) print_quietly(stderr, "note: " + replay_notes[i] + "\n");
  }
  return run_characterize(options);
}

}  // namespace

int ssdprobe_main(int argc, char** argv) {
  CommandLine c;
  c.argv.assign(argv, argv + argc);
  build_command_line(c);
  try {
    c.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parse_failure(c, e);
  }
  if (c.generated.requested()) return checked_exit(print_generated_output(c.app, c.generated));
  try {
    return checked_exit(dispatch(c));
  } catch (const Error& e) {
    return checked_exit(print_error(e));
  } catch (const std::bad_alloc&) {
    return checked_exit(print_error(Error(ErrorCategory::internal, "out of memory (std::bad_alloc)")));
  } catch (const std::exception& e) {
    return checked_exit(print_error(Error(ErrorCategory::internal, e.what())));
  }
}

}  // namespace ssdprobe
