#include "cli/fio_jobs_run.h"

#include <fmt/format.h>

#include "cli/compare_outputs.h"
#include "cli/report_run.h"
#include "core/error.h"
#include "core/output.h"
#include "report/fio_jobs.h"
#include "core/output_file.h"
#include "report/output_kinds.h"

namespace ssdprobe {

CLI::App* add_fio_jobs_command(CLI::App& app, FioJobsArgs& args) {
  CLI::App* command = app.add_subcommand(
      "fio-jobs", "Write a fio job file that times a saved run's key cells again with fio on the same device: "
                  "reads aligned to the read page and straddling it, the queue depths around the knee, and "
                  "(commented out unless --with-writes) a partial and a whole write-unit write, each job with what "
                  "ssdprobe measured in a comment");
  command->add_option("RESULT.json", args.document, "The result document (--json of an earlier run)")->required();
  command->add_option("-o,--output", args.output, "Write the job file to FILE instead of standard output")
      ->type_name("FILE");
  command
      ->add_option("--runtime", args.runtime_s,
                   "Seconds each job runs (fio's runtime, time_based), to the millisecond: 0.5 is written as "
                   "runtime=500ms [default: 10]")
      ->type_name("SECONDS")
      ->check(CLI::Range(0.001, 1e6));
  command->add_flag("--with-writes", args.with_writes,
                    "Write the write jobs active instead of commented out: they overwrite the run's write window, "
                    "which fio does not save (scratch drives only)");
  command->footer(
      "\nThe jobs and how to compare fio's numbers with the document's: docs/usage.md (Reproducing a run with "
      "fio). A simulated drive's document is refused: there is no device for fio to run on.\n"
      "\nExit codes: 0 written, 2 bad usage (an output that would overwrite the document or another result "
      "document), 3 a document that cannot be used (missing, unreadable, not a result document, another schema "
      "version, an `info` document, a simulated drive's), 4 permission denied writing the file, 1 internal "
      "error.\n");
  return command;
}

int run_fio_jobs(const Options& options, const FioJobsArgs& args) {
  const std::string output = args.output.empty() || names_standard_output(args.output) ? "-" : args.output;
  const OutputSpec job_file{output, "-o", fio_job_kind(), options.force};
  refuse_output_over_input({"-o", output}, args.document, "the document exported");
  check_output(job_file);
  const std::string text = read_result_document_text(args.document);
  FioJobsOptions jobs_options;
  jobs_options.source = args.document;
  jobs_options.runtime_s = args.runtime_s;
  jobs_options.with_writes = args.with_writes;
  write_output(job_file, fio_job_file(text, jobs_options));
  if (!options.quiet && !names_stream(output)) {
    print_quietly(stdout, fmt::format("fio-jobs: wrote {}\n", printable(output)));
  }
  return 0;
}

}  // namespace ssdprobe
