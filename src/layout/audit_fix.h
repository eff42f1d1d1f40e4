// What to run to fix an audit finding: the least destructive way, as steps
// in the order to run them, each with what it costs. The commands name the
// real device nodes; steps the user must word for themselves (a backup to a
// place only they know) have an empty command and say what to do in
// `purpose`. audit.h includes this header (AuditLine holds the steps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

struct FixStep {
  std::string command;         // a shell command line; "" when the step is the user's (a backup)
  std::string purpose;         // why, and what must hold before it runs
  bool destroys_data = false;  // erases what is on the layer (needs a backup first)
  bool moves_data = false;     // rewrites data in place (an interruption leaves it half moved)
  std::string cost;            // in words: "in place, no data moved", "moves 64 MiB: about 1 s at ..."
};

// What the run measured that prices a fix: sequential rates, when a grid or
// the write stream gave one (`ssdprobe audit` measures nothing: sizes only).
struct FixContext {
  std::optional<double> read_bytes_per_s;
  std::optional<double> write_bytes_per_s;
  std::string read_rate_source;   // "the read grid's 1 MiB requests at queue depth 1"
  std::string write_rate_source;  // "the write probe's sequential stream"
};

struct LayoutAudit;

// Gives every line that is not OK its fix (and leaves OK lines without).
void attach_fixes(LayoutAudit& audit, const FixContext& context);

// "moves 64 MiB of data: about 1.2 s at the measured ..." or, with no rate,
// the size only. Exposed for tests.
std::string move_cost(uint64_t bytes, const FixContext& context);

}  // namespace ssdprobe
