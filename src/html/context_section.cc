// Where, when and how the run ran, and what else used the disk meanwhile:
// what a person needs to trust (or question) the numbers above.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "core/units.h"
#include "html/page.h"
#include "html/sections.h"
#include "report/run_context_text.h"

namespace ssdprobe {
namespace {

std::string command_line(const Json& doc) {
  std::vector<std::string> words;
  for (const Json& w : field(doc, "command_line")) {
    if (w.is_string()) words.push_back(w.get<std::string>());
  }
  if (words.empty()) return "not recorded (a document written before the command line was)";
  return command_code(shell_command_text(words));
}

// info and audit take a millisecond or less: their time in full
// ("0.000812 s"), which three decimals would show as 0.001 s or 0.000 s (0
// is what documents from before they recorded it hold).
std::string duration(const Json& doc) {
  const auto seconds = number_of(doc, "duration_s");
  if (!seconds) return "-";
  if (field(doc, "run").is_null()) return fmt::format("{} s (no timing IO)", *seconds);
  return fmt::format("{:.3f} s", *seconds);
}

std::string size_with_bytes(const Json& j, const char* key) {
  const auto bytes = bytes_of(j, key);
  return bytes ? fmt::format("{} ({} bytes)", format_size(*bytes), *bytes) : "-";
}

std::string context_table(const Json& doc) {
  const Json& target = field(doc, "target");
  const Json& run = field(doc, "run");
  const Json& tool = field(doc, "tool");
  const auto row = [](const char* name, const std::string& value) { return data_row({name, value}); };
  std::vector<std::string> rows{
      row("host", text(doc, "hostname", "not recorded")),
      row("command line", command_line(doc)),
      row("ssdprobe version", text(tool, "version", "not recorded") + " (schema " + text(doc, "schema") + ")"),
      row("started at", text(doc, "started_at", "not recorded")),
      row("ended at", text(doc, "ended_at", "not recorded")),
      row("duration", duration(doc)),
      row("device", text(target, "path") + " (" + text(target, "kind") + ", " + text(target, "transport") + ")"),
      row("model", text(target, "model", "not reported")),
      row("serial", text(target, "serial", "not reported")),
      row("firmware", text(target, "firmware", "not reported")),
      row("size", size_with_bytes(target, "size_bytes")),
      row("engine", run.is_object() ? text(run, "engine") : "no timing IO"),
  };
  if (run.is_object()) {
    rows.push_back(row("timed IOs", number_text(run, "ios", 0) + " in " + number_text(run, "device_time_s", 3) +
                                        " s of device time; first read grid stopped: " + text(run, "stop_reason")));
  }
  return html_table("context", {}, rows, "");
}

std::string counts_text(const Json& c) {
  std::vector<std::string> parts;
  if (bytes_of(c, "read_bytes").value_or(0) > 0) {
    parts.push_back(fmt::format("{} reads, {} read", number_text(c, "reads", 0), size_text(c, "read_bytes")));
  }
  if (bytes_of(c, "write_bytes").value_or(0) > 0) {
    parts.push_back(fmt::format("{} writes, {} written", number_text(c, "writes", 0), size_text(c, "write_bytes")));
  }
  if (parts.empty()) return "none";
  return parts.size() == 1 ? parts[0] : parts[0] + "; " + parts[1];
}

std::string other_io(const Json& phase) {
  const Json& io = field(phase, "other_io");
  if (!io.is_object()) return "<span class=\"note\">not measured</span>";
  return fmt::format("on {}: {} <span class=\"note\">(this run: {})</span>", text(io, "disk"), counts_text(io),
                     counts_text(field(io, "own")));
}

std::string phases_table(const Json& doc) {
  std::vector<std::string> rows;
  for (const Json& p : field(doc, "phases")) {
    rows.push_back(data_row({text(p, "name"), text(p, "state"), text(p, "reason", "-"),
                             number_text(p, "device_time_s", 3) + " s", other_io(p)}));
  }
  return html_table("phases", {"phase", "state", "why", "device time", "other IO on the disk meanwhile"}, rows,
                    "no phases recorded in this document");
}

}  // namespace

std::string context_section(const Json& doc) {
  return context_table(doc) + "<h3>Phases and other IO seen during the run</h3>\n" +
         empty_note("Other IO is read from the disk's own counters less this run's IO; it cannot be told for "
                    "simulated drives, files, and phases that time no IO (\"not measured\").") +
         phases_table(doc);
}

}  // namespace ssdprobe
