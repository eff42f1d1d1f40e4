#include "cli/compare_outputs.h"

#include <filesystem>
#include <fmt/format.h>

#include "core/error.h"
#include "core/output.h"

namespace ssdprobe {
namespace {

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

void refuse(const CompareOutput& output, const std::string& why) {
  const std::string option = output.option;
  const std::string extension = option == "--markdown" ? "md" : option.substr(2);
  throw Error(ErrorCategory::usage, fmt::format("{} {}: {}; nothing was written (give a new file name, e.g. {} "
                                                "comparison.{})", option, output.path, why, option, extension));
}

}  // namespace

void refuse_output_over_input(const CompareOutput& output, const std::string& input, const std::string& what) {
  if (output.path.empty() || output.path == "-" || input.empty()) return;
  if (!same_file(output.path, input)) return;
  throw Error(ErrorCategory::usage, fmt::format("{} {}: is {}, which the output would overwrite; nothing was written "
                                                "(give another file name)", output.option, output.path, what));
}

void refuse_outputs_over_inputs(const std::vector<CompareOutput>& outputs, const std::vector<std::string>& inputs) {
  for (const CompareOutput& output : outputs) {
    if (output.path.empty() || output.path == "-") continue;
    for (const std::string& input : inputs) {
      if (same_file(output.path, input)) refuse(output, "is one of the documents being compared");
    }
  }
}

}  // namespace ssdprobe
