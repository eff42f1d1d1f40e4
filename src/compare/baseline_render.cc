// The text and JSON renderings of `compare --baseline` (shapes in
// docs/compare.md). Document text (file names, model, serial, firmware) goes
// through printable() in the text and with_valid_utf8 in the JSON.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "compare/baseline_diff.h"
#include "core/output.h"
#include "report/json_values.h"
#include "report/utf8.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

// "changed: read page 16 KiB (...) -> 32 KiB (...)", with a latency's ratio
// and how many standard errors out it lies.
std::string item_line(const BaselineItem& item) {
  std::string line = fmt::format("{}: {} -> {}", item.what, printable(item.old_text), printable(item.new_text));
  if (item.ratio && item.z) line += fmt::format(" ({:.2f}x, {:.1f} standard errors)", *item.ratio, *item.z);
  return line;
}

std::string step_text(const BaselineStep& step) {
  std::string out = fmt::format("{} ({}) -> {} ({})\n", printable(step.old_file), printable(step.old_started),
                                printable(step.new_file), printable(step.new_started));
  std::vector<std::string> same, open;
  for (const BaselineItem& item : step.items) {
    if (item.changed) out += "  changed: " + item_line(item) + "\n";
    else if (!item.not_compared.empty()) open.push_back(fmt::format("{} ({})", item.what, item.not_compared));
    else same.push_back(item.what);
  }
  if (same.size() == step.items.size()) out += "  no change\n";
  if (!same.empty() && same.size() < step.items.size()) out += fmt::format("  same: {}\n", fmt::join(same, ", "));
  if (!open.empty()) out += fmt::format("  not compared: {}\n", fmt::join(open, "; "));
  return out;
}

json item_json(const BaselineItem& item) {
  json j = {{"what", item.what}, {"old", item.old_text}, {"new", item.new_text}, {"changed", item.changed},
            {"not_compared", text_or_null(item.not_compared)}};
  j["ratio"] = item.ratio ? json(rounded(*item.ratio)) : json(nullptr);
  j["standard_errors"] = item.z && std::isfinite(*item.z) ? json(rounded(*item.z)) : json(nullptr);
  return j;
}

}  // namespace

std::string render_baseline_text(const BaselineComparison& c) {
  std::string out = fmt::format("Drive {} (serial {}): {} runs, each against the one before\n",
                                printable(c.model.empty() ? "(no model)" : c.model),
                                printable(c.serial.empty() ? "(none)" : c.serial), c.files.size());
  size_t changes = 0;
  for (const BaselineStep& step : c.steps) {
    out += step_text(step);
    for (const BaselineItem& item : step.items) changes += item.changed ? 1 : 0;
  }
  out += changes == 0 ? "No change between the runs.\n" : fmt::format("{} changes between the runs.\n", changes);
  return out;
}

std::string render_baseline_json(const BaselineComparison& c) {
  json steps = json::array();
  for (const BaselineStep& step : c.steps) {
    json items = json::array();
    for (const BaselineItem& item : step.items) items.push_back(item_json(item));
    steps.push_back({{"old", step.old_file}, {"new", step.new_file}, {"old_started_at", step.old_started},
                     {"new_started_at", step.new_started}, {"items", std::move(items)}});
  }
  const json doc = {{"schema", "ssdprobe-baseline/1"}, {"model", c.model}, {"serial", c.serial},
                    {"runs", c.files}, {"steps", std::move(steps)}};
  return with_valid_utf8(doc).dump(2) + "\n";
}

}  // namespace ssdprobe
