// compare never writes over what it reads: an output (--json, --csv,
// --markdown, --html, --ndjson) that is one of the documents compared is
// refused before anything is read, --force or not. (A saved result document
// or a target at an output path is the output door's refusal:
// core/output_file.h.)
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

}  // namespace ssdprobe
