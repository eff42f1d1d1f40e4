// `ssdprobe fio-jobs RESULT.json`: a fio job file that reproduces a saved
// run's key cells on the same device with fio, so a measurement can be
// checked with a tool everyone has (docs/usage.md "Reproducing a run with
// fio"). The jobs, each with the number ssdprobe measured for it in a
// comment: reads of one read page aligned to the page and straddling a page
// boundary (offset half a page into it), small random reads at the
// queue-depth knee and one measured depth below and above it, and a partial
// and a whole write-unit write, commented out unless asked for. A part the
// document lacks (no read page found, no parallelism probe, no --write) is
// left out with a comment saying why.
#pragma once

#include <string>
#include <string_view>

namespace ssdprobe {

struct FioJobsOptions {
  std::string source;        // the document's file name, named in the header
  double runtime_s = 10.0;   // time_based runtime of each job
  bool with_writes = false;  // write jobs active (else present, commented out)
};

// The job file's text. Throws Error(target) naming `source` for a document
// that cannot be reproduced: not JSON, a simulated drive's (there is no
// device for fio to run on), or one that timed nothing (`info`, `audit`).
std::string fio_job_file(std::string_view document_text, const FioJobsOptions& options);

}  // namespace ssdprobe
