// The text report's lines about where and how a run ran, beside the drive's
// own: the host and command line (under the identity), and the other IO on
// the disk during each timed phase (under the run summary).
#pragma once

#include <string>
#include <vector>

#include "report/result.h"

namespace ssdprobe {

// "ssdprobe --write --json 'a b.json' /dev/sdb": each word quoted for a
// POSIX shell where it needs to be, so the line can be pasted back.
std::string shell_command_text(const std::vector<std::string>& words);

// "  host db7, started 2024-05-01T10:00:00Z" and "  command ssdprobe ...".
void host_and_command_lines(std::string& out, const ResultDocument& d, size_t width);

// "12 reads, 3 MiB read; 2 writes, 1 MiB written" (only the kinds with bytes).
std::string io_amounts_text(const IoCounts& counts);

// "Other IO: on loop0 (...) during read_grid (none), read_parallelism (12
// reads, 3 MiB read)", or nothing when no phase could be measured (sims, files).
void other_io_lines(std::string& out, const ResultDocument& d, size_t width);

}  // namespace ssdprobe
