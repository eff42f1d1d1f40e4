#include "safety/confirm.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"

namespace ssdprobe {

std::string describe_write_plan(const WritePlanSummary& plan) {
  std::string text = fmt::format("ssdprobe will WRITE to {}\n", plan.path);
  text += fmt::format("  model {}  serial {}  size {} ({} bytes)\n", plan.model.empty() ? "-" : plan.model,
                      plan.serial.empty() ? "-" : plan.serial, format_size(plan.device_size), plan.device_size);
  text += fmt::format("  byte range {} to {} ({} bytes, {})\n", plan.offset, plan.offset + plan.length, plan.length,
                      format_size(plan.length));
  if (plan.preserve) {
    text += fmt::format("  the range's current content is saved first to {} and restored afterwards\n", plan.journal);
  } else {
    text += "  --no-preserve: the range's current content will be DESTROYED and not restored\n";
  }
  return text;
}

void confirm_write(const WritePlanSummary& plan, bool assume_yes, bool interactive, std::FILE* input,
                   std::FILE* output) {
  fmt::print(output, "{}", describe_write_plan(plan));
  if (assume_yes) {
    fmt::print(output, "  confirmed by --yes\n");
    return;
  }
  if (!interactive) {
    throw Error(ErrorCategory::refused, "refusing to write without confirmation: no terminal to ask on; pass --yes "
                                        "to confirm in scripts");
  }
  fmt::print(output, "Type 'yes' to write to {}: ", plan.path);
  std::fflush(output);
  char line[64] = {};
  if (std::fgets(line, sizeof line, input) == nullptr || std::string(line) != "yes\n") {
    throw Error(ErrorCategory::refused, "not confirmed: nothing was written");
  }
}

}  // namespace ssdprobe
