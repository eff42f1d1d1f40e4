#include "safety/confirm.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/output.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

// The bound in the drive's terms, the cap and what it leaves out.
std::string cost_lines(const WritePlanSummary& plan) {
  std::string text;
  if (!plan.share_of_drive.empty())
    text += fmt::format("  {} is {}\n", format_size(plan.max_bytes_written), plan.share_of_drive);
  if (plan.max_write_cap > 0)
    text += fmt::format("  capped by --max-write-bytes {} ({} bytes)\n", format_size(plan.max_write_cap),
                        plan.max_write_cap);
  if (!plan.left_out.empty()) text += fmt::format("  left out: {}\n", plan.left_out);
  return text;
}

}  // namespace

// Every string shown comes from outside (the command line, sysfs): its
// control characters are escaped (core/output.h printable), so an escape
// sequence in a model name cannot redraw the text the user confirms.
std::string describe_write_plan(const WritePlanSummary& plan) {
  const auto shown = [](const std::string& text) { return text.empty() ? std::string("-") : printable(text); };
  std::string text = fmt::format("ssdprobe will WRITE to {}\n", printable(plan.path));
  text += fmt::format("  model {}  serial {}  size {} ({} bytes)\n", shown(plan.model), shown(plan.serial),
                      format_size(plan.device_size), plan.device_size);
  text += fmt::format("  byte range {} to {} ({} bytes, {})\n", plan.offset, plan.offset + plan.length, plan.length,
                      format_size(plan.length));
  if (plan.max_bytes_written > 0) {
    text += fmt::format("  writes at most {} bytes ({}) in all: {}\n", plan.max_bytes_written,
                        format_size(plan.max_bytes_written), plan.max_bytes_breakdown);
    text += cost_lines(plan);
    text += fmt::format("  expected time: about {:.0f} s of probing (--budget){}\n", plan.budget_s,
                        plan.simulated || !plan.preserve || !plan.zones.empty() ? ""
                                                        : fmt::format(", plus copying {} to the journal and back",
                                                                      format_size(plan.length)));
  }
  if (!plan.zones.empty()) {
    return text + fmt::format("  zoned device: sequential writes only into {}, each journaled to {} first and given "
                              "back with a zone reset (empty, as now); no zone holding data is written\n",
                              plan.zones, printable(plan.journal));
  }
  if (plan.simulated) {
    text += "  simulated drive: nothing real is written (asked as on a real drive, so scripts behave the same)\n";
  } else if (plan.preserve) {
    text += fmt::format("  the range's current content is saved first to {} and restored afterwards\n",
                        printable(plan.journal));
  } else {
    text += "  --no-preserve: the range's current content will be DESTROYED and not restored\n";
  }
  return text;
}

void confirm_action(const std::string& description, const std::string& action, const Confirmation& how) {
  print_quietly(how.output, description);
  if (how.assume_yes) {
    print_quietly(how.output, "  confirmed by --yes\n");
    return;
  }
  if (!how.interactive || how.input == nullptr) {
    throw Error(ErrorCategory::refused, fmt::format("refusing to {} without confirmation: no terminal to ask on; pass "
                                                    "--yes to confirm in scripts", action));
  }
  print_quietly(how.output, fmt::format("Type 'yes' to {}: ", action));
  char line[64] = {};
  if (std::fgets(line, sizeof line, how.input) == nullptr || std::string(line) != "yes\n") {
    throw Error(ErrorCategory::refused, "not confirmed: nothing was written");
  }
}

void confirm_write(const WritePlanSummary& plan, bool assume_yes, bool interactive, std::FILE* input,
                   std::FILE* output) {
  confirm_action(describe_write_plan(plan), "write to " + printable(plan.path),
                 {assume_yes, interactive, input, output});
}

}  // namespace ssdprobe
