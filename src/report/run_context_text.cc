#include "report/run_context_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/plural.h"
#include "core/units.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

bool shell_safe(const std::string& word) {
  if (word.empty()) return false;
  for (const char c : word) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("-_./:=,+@%").find(c) != std::string_view::npos;
    if (!plain) return false;
  }
  return true;
}

std::string shell_quoted(const std::string& word) {
  if (shell_safe(word)) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string other_io_cell(const PhaseRecord& p) {
  const IoCounts& c = p.other_io->other;
  return p.name + " (" + (c.bytes() == 0 ? std::string("none") : io_amounts_text(c)) + ")";
}

}  // namespace

std::string io_amounts_text(const IoCounts& c) {
  std::vector<std::string> parts;
  if (c.read_bytes > 0) {
    parts.push_back(fmt::format("{}, {} read", counted(c.reads, "read"), format_size(c.read_bytes)));
  }
  if (c.write_bytes > 0) {
    parts.push_back(fmt::format("{}, {} written", counted(c.writes, "write"), format_size(c.write_bytes)));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string shell_command_text(const std::vector<std::string>& words) {
  std::vector<std::string> quoted;
  for (const auto& word : words) quoted.push_back(shell_quoted(word));
  return fmt::format("{}", fmt::join(quoted, " "));
}

void host_and_command_lines(std::string& out, const ResultDocument& d, size_t width) {
  if (!d.hostname.empty()) out += fmt::format("  host {}, started {}\n", d.hostname, d.started_at);
  if (!d.command_line.empty()) out += wrapped("  command ", shell_command_text(d.command_line), width, 4);
}

void other_io_lines(std::string& out, const ResultDocument& d, size_t width) {
  std::vector<std::string> cells;
  std::string disk;
  for (const PhaseRecord& p : d.phases) {
    if (!p.other_io) continue;
    disk = p.other_io->disk;
    cells.push_back(other_io_cell(p));
  }
  if (cells.empty()) return;
  out += wrapped("Other IO: ", fmt::format("on {} (the whole disk's counters less this run's IO) during {}", disk,
                                           fmt::join(cells, ", ")),
                 width, 10);
}

}  // namespace ssdprobe
