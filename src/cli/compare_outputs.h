// compare never writes over what it reads: an output (--json, --csv,
// --markdown, --html) that is one of the documents compared, or any saved
// result document (`compare --json results/*.json` makes the shell hand the
// first result to --json), or that looks like a target, is refused before
// anything is read.
#pragma once

#include <string>
#include <vector>

namespace ssdprobe {

struct CompareOutput {
  const char* option;  // "--json"
  std::string path;    // empty: not asked for; "-": standard output
};

// Throws Error(usage) naming the option, the path and why.
void refuse_outputs_over_inputs(const std::vector<CompareOutput>& outputs, const std::vector<std::string>& inputs);

// Every command's rule: an output that is the same file as something the
// command reads (the target, a --units-from document, a plotted document)
// is refused before anything is written. `what` names the input: "the
// target", "the --units-from document".
void refuse_output_over_input(const CompareOutput& output, const std::string& input, const std::string& what);

// Every single-file output's rule (--html, --prometheus, fio-jobs -o): a
// saved result document at its path (a shell glob or a slip of the tab key)
// is a run's record, never replaced. Throws Error(usage) naming the option,
// the path, `what` the output is ("page") and `example`, a file name to use.
void refuse_output_over_document(const CompareOutput& output, const char* what, const char* example);

}  // namespace ssdprobe
