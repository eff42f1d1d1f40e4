// `ssdprobe --replay RESULT.json [TARGET]`: run again with the options a
// saved result document records (report/saved_options.h reads them), so a
// fleet can repeat one run on another host or after a firmware update.
// Options given on this command line win; --write (and --yes,
// --no-preserve, --journal) and the output paths (--json, --html) are never
// taken from the document.
#pragma once

#include <string>
#include <vector>

#include "cli/options.h"

namespace ssdprobe {

// The option table keys a replay takes from the document: engine, budget_s,
// region, seed, queue_depth, max_queue_depth, spin_us, cache_bytes, at,
// fail_on.
const std::vector<std::string>& replayed_keys();

// Fills `raw` (the main command's options, with raw.values["replay_of"] the
// document) with each replayed option the command line did not give, and
// the target when none was given. Returns the notes the new document
// records (and the run prints): what was replayed, and that --write was not.
// Throws Error: target (exit 3) for a document that cannot be used, usage
// (exit 2) for a TARGET that is itself a saved result document.
std::vector<std::string> apply_replay(RawOptions& raw);

}  // namespace ssdprobe
