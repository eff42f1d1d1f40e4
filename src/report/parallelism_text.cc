#include <algorithm>
#include <fmt/format.h>
#include <utility>

#include "core/units.h"
#include "report/parallelism_render.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

std::string value_text(const ParallelismValue& v, const std::string& found) {
  if (v.state == UnitState::found) return fmt::format("{} (confidence {:.3f}, bootstrap support)", found, v.confidence);
  if (v.state == UnitState::not_measured) return "not measured";
  return "not determined";
}

}  // namespace

void parallelism_text(std::string& out, const std::optional<ParallelismSection>& section, size_t width) {
  if (!section) return;
  const ParallelismVerdict& v = section->verdict;
  auto number = [](const ParallelismValue& x) { return x.value ? *x.value : 0.0; };
  if (v.op == IoOp::write) {
    out += fmt::format("\nWrite parallelism (small random writes inside the write window{})\n",
                       section->window ? fmt::format(", {} at {}", format_size(section->window->length),
                                                     format_size(section->window->offset))
                                       : "");
  } else {
    out += "\nParallelism (small random reads)\n";
  }
  out += fmt::format("  queue depth knee   {}\n", value_text(v.queue_depth_knee, fmt::format("{:.0f}", number(v.queue_depth_knee))));
  out += fmt::format("  plateau            {}\n", value_text(v.plateau_iops, fmt::format("{:.0f} IOPS", number(v.plateau_iops))));
  out += fmt::format("  parallel units     {}\n", value_text(v.parallel_units, fmt::format("{:.0f}", number(v.parallel_units))));
  out += fmt::format("  interleave         {}\n",
                     value_text(v.interleave_bytes, format_size(static_cast<uint64_t>(number(v.interleave_bytes)))));
  // The sweep table, in blocks of as many depths as the width holds (the
  // refinement around the knee adds two columns to the nine powers of two).
  const size_t per_block = std::max<size_t>(1, (width > 11 ? width - 11 : 0) / 8);
  for (size_t first = 0; first < v.depths.size(); first += per_block) {
    std::string depths = "  depth    ", iops = "  IOPS     ", p99 = "  p99 us   ";
    for (size_t i = first; i < std::min(v.depths.size(), first + per_block); ++i) {
      depths += fmt::format("{:>8}", v.depths[i].queue_depth);
      iops += fmt::format("{:>8.0f}", v.depths[i].iops);
      p99 += fmt::format("{:>8.0f}", v.depths[i].p99_us);
    }
    out += depths + "\n" + iops + "\n" + p99 + "\n";
  }
  // Why, for each value (the JSON has the same text under evidence).
  const std::pair<const char*, const ParallelismValue*> reasons[] = {
      {"knee: ", &v.queue_depth_knee}, {"interleave: ", &v.interleave_bytes}, {"units: ", &v.parallel_units}};
  for (const auto& [label, value] : reasons) out += wrapped(std::string("  ") + label, value->evidence, width, 4);
  out += fmt::format("  {} IOs, {:.2f} s of device time (of the {:.2f} s it was given)\n", section->ios,
                     section->device_time_s, section->budget_s);
}

}  // namespace ssdprobe
