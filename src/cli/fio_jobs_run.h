// `ssdprobe fio-jobs RESULT.json [-o FILE]`: the fio job file that times a
// saved run's key cells again with fio (report/fio_jobs.h makes it). Its
// options only make sense here, so they are declared here (the shared table
// gives it -q, scope kFioJobs).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/options.h"

namespace ssdprobe {

struct FioJobsArgs {
  std::string document;        // RESULT.json
  std::string output = "-";    // -o FILE; "-" = standard output
  double runtime_s = 10.0;     // --runtime SECONDS of each job
  bool with_writes = false;    // --with-writes: the write jobs active
};

// Adds the `fio-jobs` subcommand and its options to `app`.
CLI::App* add_fio_jobs_command(CLI::App& app, FioJobsArgs& args);

// Reads the document and writes the job file; says where unless
// options.quiet or it went to standard output. Throws Error: target (exit 3)
// for a document that cannot be used or reproduced (a simulated drive's),
// usage (exit 2) for an output over the document or another result document.
int run_fio_jobs(const Options& options, const FioJobsArgs& args);

}  // namespace ssdprobe
