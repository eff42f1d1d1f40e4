// Dispatches each finding to the builder for its layer (audit_fix_steps.h)
// and prices data moves from the rates the run measured.
#include "layout/audit_fix.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>

#include "core/block_math.h"
#include "core/units.h"
#include "layout/audit.h"
#include "layout/audit_fix_steps.h"

namespace ssdprobe {
namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;
constexpr const char* kLoopVariable = "loop";

std::string rate_text(double bytes_per_s, const std::string& source) {
  return fmt::format("{:.0f} MiB/s ({})", bytes_per_s / kBytesPerMiB, source);
}

std::string seconds_text(double s) {
  if (s < 0.1) return "under 0.1 s";
  return s < 10 ? fmt::format("about {:.1f} s", s) : fmt::format("about {:.0f} s", s);
}

// The partition number in "partition[N].…", or 0 for a whole-disk field.
int partition_number(const std::string& field) {
  if (!field.starts_with("partition[")) return 0;
  return std::atoi(field.c_str() + 10);
}

const LayoutStack* stack_of(const DiskLayout& layout, int number) {
  for (const auto& stack : layout.stacks) {
    if (number == 0 ? !stack.partition : stack.partition && stack.partition->number == number) return &stack;
  }
  return nullptr;
}

// The field after the stack's prefix: "start", "md.chunk", "xfs.sunit".
std::string field_in_stack(const std::string& field) {
  if (!field.starts_with("partition[")) return field;
  const auto dot = field.find("].");
  return dot == std::string::npos ? field : field.substr(dot + 2);
}

// The node a stack's commands name. A disk image's are those of the loop
// device the fix attaches it to (through_loop_device): "$loop", "${loop}p2".
FixWord node_of(const DiskLayout& layout, const LayoutStack& stack) {
  if (layout.image_file) {
    return stack.partition ? FixWord::variable(kLoopVariable, fmt::format("p{}", stack.partition->number))
                           : FixWord::variable(kLoopVariable);
  }
  if (!stack.partition) return layout.disk_path;
  if (!stack.node.empty()) return stack.node;
  const bool digit_end = !layout.disk_path.empty() && std::isdigit(static_cast<unsigned char>(layout.disk_path.back()));
  return fmt::format("{}{}{}", layout.disk_path, digit_end ? "p" : "", stack.partition->number);
}

FixWord disk_of(const DiskLayout& layout) {
  return layout.image_file ? FixWord::variable(kLoopVariable) : FixWord(layout.disk_path);
}

// A disk image is audited as the loop device `losetup` makes of it
// (layout/audit.h), and fixed through one: partx, fsck, mkfs, LVM and md
// need a block device, and a partition of an image has no node of its own
// until one is attached. The first step attaches it (with its partitions)
// and keeps the device's name in $loop for the steps after it; the last
// detaches it. A fix of words only is left as it is.
std::vector<FixStep> through_loop_device(std::vector<FixStep> steps, const std::string& image) {
  const bool runs_commands =
      std::any_of(steps.begin(), steps.end(), [](const FixStep& step) { return !step.command.empty(); });
  if (!runs_commands) return steps;
  FixCommand attach{{"losetup", "--find", "--show", "--partscan", image}};
  attach.assigns = kLoopVariable;
  FixStep first = in_place(attach, fmt::format(
      "the steps below need {} as a block device: attach it to a free loop device with its partitions; ${} keeps "
      "the name losetup prints (/dev/loopN; its partitions are ${{{}}}p1...) for them, so run them in the same "
      "shell", image, kLoopVariable, kLoopVariable));
  first.cost = "writes nothing";
  steps.insert(steps.begin(), std::move(first));
  FixStep last = in_place({{"losetup", "--detach", FixWord::variable(kLoopVariable)}},
                          fmt::format("detach the loop device; the changes are in {}", image));
  last.cost = "writes nothing";
  steps.push_back(std::move(last));
  return steps;
}

std::vector<FixStep> steps_for(const LayoutAudit& audit, const AuditLine& line, const FixContext& context) {
  const int number = partition_number(line.field);
  const FixWord disk = disk_of(audit.layout);
  if (line.field.ends_with(".kernel_start")) {
    const LayoutStack none;
    return kernel_start_fix({audit.layout, none, audit.units, context, disk, ""}, number);
  }
  const LayoutStack* stack = stack_of(audit.layout, number);
  if (stack == nullptr) return {};
  const FixTarget target{audit.layout, *stack, audit.units, context, disk, node_of(audit.layout, *stack)};
  const std::string what = field_in_stack(line.field);
  if (what == "start") return partition_start_fix(target);
  if (what.starts_with("md.") || what.starts_with("lvm.")) return volume_fix(target, line, what);
  if (stack->filesystem && what.starts_with(stack->filesystem->type + ".")) {
    return filesystem_fix(target, line, what.substr(stack->filesystem->type.size() + 1));
  }
  return {};
}

std::vector<FixStep> fix_for(const LayoutAudit& audit, const AuditLine& line, const FixContext& context) {
  std::vector<FixStep> steps = steps_for(audit, line, context);
  return audit.layout.image_file ? through_loop_device(std::move(steps), audit.layout.disk_path) : steps;
}

}  // namespace

uint64_t covering(uint64_t value, const AuditUnits& u) {
  uint64_t unit = 4096;
  if (u.read_page) unit = std::lcm(unit, *u.read_page);
  if (u.write_unit) unit = std::lcm(unit, *u.write_unit);
  return align_up(value, unit);
}

std::optional<uint64_t> checked_lcm(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return std::nullopt;
  const uint64_t step = a / std::gcd(a, b);
  if (step > UINT64_MAX / b) return std::nullopt;
  return step * b;
}

FixStep in_place(const FixCommand& command, std::string purpose) {
  return {render_fix({command}), std::move(purpose), false, false, "in place, no data moved"};
}

std::string with_note(std::string purpose, const std::string& note) {
  return note.empty() ? purpose : purpose + ". Note: " + note;
}

FixStep by_hand(std::string purpose, std::string cost) { return {"", std::move(purpose), false, false, std::move(cost)}; }

std::string move_cost(uint64_t bytes, const FixContext& c) {
  const std::string size = format_size(bytes);
  const double b = static_cast<double>(bytes);
  if (c.read_bytes_per_s && c.write_bytes_per_s) {
    return fmt::format("moves {} of data (reads and writes all of it): {} at the measured {} read and {} "
                       "write rates", size, seconds_text(b / *c.read_bytes_per_s + b / *c.write_bytes_per_s),
                       rate_text(*c.read_bytes_per_s, c.read_rate_source),
                       rate_text(*c.write_bytes_per_s, c.write_rate_source));
  }
  if (c.read_bytes_per_s) {
    return fmt::format("moves {} of data: reading it takes {} at the measured {} read rate, writing it back "
                       "as long again or more (write rate not measured without --write)", size,
                       seconds_text(b / *c.read_bytes_per_s), rate_text(*c.read_bytes_per_s, c.read_rate_source));
  }
  return fmt::format("moves {} of data (reads and writes all of it); no sequential rate was measured to time it "
                     "(the main job's report does)", size);
}

void attach_fixes(LayoutAudit& audit, const FixContext& context) {
  for (auto& line : audit.lines) {
    if (line.ok) continue;
    // A person decides first (table_audit.h): words, no command.
    line.fix = line.fix_withheld.empty() ? fix_for(audit, line, context)
                                         : std::vector{by_hand(line.fix_withheld, "nothing is written until then")};
  }
}

}  // namespace ssdprobe
