#include "cli/replay.h"

#include <fmt/format.h>

#include "cli/report_run.h"
#include "core/error.h"
#include "core/output.h"
#include "report/output_kinds.h"
#include "report/saved_options.h"

namespace ssdprobe {

const std::vector<std::string>& replayed_keys() {
  static const std::vector<std::string> keys{"engine",  "budget_s",    "region", "seed", "queue_depth",
                                             "max_queue_depth", "spin_us", "cache_bytes", "at", "fail_on"};
  return keys;
}

std::vector<std::string> apply_replay(RawOptions& raw) {
  const std::string file = raw.values.at("replay_of");
  if (file.empty()) throw Error(ErrorCategory::usage, "--replay needs a value: the result document to run again");
  if (!raw.target.empty() && holds_result_document(raw.target)) {
    throw Error(ErrorCategory::usage,
                fmt::format("--replay {} {}: the TARGET is a saved result document too; --replay takes one "
                            "document, and TARGET (optional: the document's own target by default) is the device, "
                            "partition, file or sim:NAME to run on", printable(file), printable(raw.target)));
  }
  const SavedOptions saved = read_saved_options(read_result_document_text(file), file, replayed_keys());
  if (!saved.timed) {
    throw Error(ErrorCategory::target, fmt::format("--replay {}: is an `info` or `audit` document: it records no "
                                                   "run to replay", printable(file)));
  }
  std::string replayed, kept;
  for (const auto& [key, text] : saved.values) {
    if (raw.values.count(key)) {
      kept += fmt::format("{}{}", kept.empty() ? "" : ", ", key);
      continue;
    }
    raw.values[key] = text;
    replayed += fmt::format("{}{} {}", replayed.empty() ? "" : ", ", key, text);
  }
  std::string target_note;
  if (raw.target.empty()) {
    raw.target = saved.target;
  } else if (raw.target != saved.target) {
    target_note = fmt::format("; on {} instead of the document's target {}", raw.target, saved.target);
  }
  std::vector<std::string> notes;
  notes.push_back(fmt::format("a replay of {} (options.replay_of): options taken from it: {}{}{}", file,
                              replayed.empty() ? "none" : replayed,
                              kept.empty() ? "" : "; given on the command line instead: " + kept, target_note));
  if (saved.write && !raw.values.count("write")) {
    notes.push_back(fmt::format("{} was a --write run: writes were not replayed (a replay never writes unless "
                                "--write is given again on its own command line)", file));
  }
  return notes;
}

}  // namespace ssdprobe
