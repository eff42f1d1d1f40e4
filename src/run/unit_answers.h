// Each unit's answer for the verdict, with what would tell when it is not
// determined or not measured: computed from what the run actually did (the
// phase that decides the unit, how it ended, the budget it had), never a
// generic hint.
#pragma once

#include <string>
#include <vector>

#include "report/result.h"
#include "report/verdict.h"
#include "run/rerun_command.h"
#include "run/run_options.h"
#include "run/write_cap.h"

namespace ssdprobe {

struct RunFacts {
  bool timed = false;      // a characterization (not info or audit)
  bool write = false;      // --write was given
  double budget_s = 60.0;  // --budget
  // The first read grid's space read as never written or trimmed
  // (run/read_phases.h): only written data can tell the read page.
  bool read_space_unwritten = false;
  // The options given that shape what the run measures (run_options.h):
  // a suggested rerun keeps them.
  std::vector<CommandOption> shaping_args = {};
  uint64_t max_write_bytes = kDefaultMaxWriteBytes;  // --max-write-bytes: a rerun that writes more raises it
  // --cache-bytes: above the SLC fill's cap, the drive's size capped the fill
  // (run/write_bound.h) and a larger --cache-bytes would change nothing.
  uint64_t cache_bytes = 16ull << 30;
};

// Sets each DetectedUnit's `to_determine` (also written to the JSON's
// detected.*) and returns the three units as the verdict lists them.
std::vector<VerdictUnit> answer_units(ResultDocument& doc, const RunFacts& facts);

}  // namespace ssdprobe
