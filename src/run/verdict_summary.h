// The verdict as a person reads it first: a status line ("ACTION: ...")
// and at most three short lines under it, the first thing to do (with its
// command), the units found, and what is open with the one rerun that would
// tell. Everything else stays in the sections below; these only pick from
// the verdict (run/verdict_builder.h), so they cannot say more than it.
#pragma once

#include <string>
#include <vector>

#include "report/result.h"
#include "report/verdict.h"
#include "run/unit_answers.h"

namespace ssdprobe {

// A unit the alignment and block-size advice rest on: the read page and the
// write unit (analysis/block_size_policy.h; partitions start at a multiple
// of both). Not the erase block (a period of write stalls no start gains
// from) nor the SLC cache's size. Only these get a rerun in the summary.
bool decides_advice(const VerdictUnit& u);

// What the status word stands for here: the worst finding, why the advice
// is inconclusive, or what "OK" covers. Without the word.
std::string status_headline(const Verdict& v, const ResultDocument& doc, const RunFacts& facts);

// The lines under the status line, each meant to fit about 100 characters
// (a command is never cut, so a long path can make one longer).
std::vector<std::string> summary_lines(const Verdict& v, const ResultDocument& doc, const RunFacts& facts);

// "writes beyond ~128 MiB in a burst run at 207 MiB/s (965 MiB/s before)",
// empty without a cache found with both speeds.
std::string burst_phrase(const ResultDocument& doc);

}  // namespace ssdprobe
