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

#include <cstddef>
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
// device for fio to run on), one that timed nothing (`info`, `audit`), or
// one whose target.path fio cannot be given (fio_filename); Error(usage) for
// a runtime fio cannot express (fio_runtime).
//
// Every string of the document is hostile (a saved document from another
// host, a drive's own model string with a newline in it): it reaches the
// file only inside comments (fio_comment) or as filename= (fio_filename),
// so every section and option in the file is one this builder wrote. Pure:
// any text in, a job file or an Error out (the fuzz target's entry point).
std::string fio_job_file(std::string_view document_text, const FioJobsOptions& options);

// `text` as comment lines ("# " and at most kFioCommentBytes of text each,
// every line ending in a newline): control characters and the rest of what
// core's printable() escapes become \xHH, so no text ends its comment and
// starts a line of its own, and a long text is cut into several lines, so
// none is longer than fio reads as one line (fio 3.33 reads a line in
// pieces of 8191 bytes and takes each piece as a line).
inline constexpr std::size_t kFioCommentBytes = 1000;
std::string fio_comment(std::string_view text);

// `path` as fio's filename= value: each ':' escaped as "\:" (fio splits the
// value into several files at an unescaped ':'). Throws Error(target) naming
// `source` and target.path for a path fio would read as another one: a
// control character (a newline would end the option line), '#' or ';' (fio
// cuts the line there), '$' (fio replaces ${NAME} with the environment's
// value and $ncpus, $pagesize, $mb_memory with numbers), whitespace at its
// end (fio strips it), "-" (fio's name for standard input and output), or a
// value too long for one line of fio's.
std::string fio_filename(std::string_view path, std::string_view source);

// `seconds` as fio's runtime= value: whole seconds as they are ("10"),
// otherwise milliseconds ("500ms"; fio reads a bare "0.5" as no runtime at
// all), rounded to the nearest millisecond. Throws Error(usage) naming
// --runtime for less than 1 ms, more than 1e6 s, or not a number.
std::string fio_runtime(double seconds);

}  // namespace ssdprobe
