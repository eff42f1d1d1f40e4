// `compare --baseline`: what changed on one drive between its saved runs.
// The runs are put in the order they ran (started_at) and each is compared
// with the one before it, so a change is named in the run it appeared in:
// the firmware revision, the units (state and size), what the kernel
// reports, the reported values that contradict the measured ones, the
// audit's findings, the drive's wear, and aligned read latencies, each
// latency change sized against the two runs' own spread (docs/compare.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/saved_result.h"

namespace ssdprobe {

// One thing compared between two runs.
struct BaselineItem {
  std::string what;      // "firmware", "read page", "4 KiB read at offset 0"...
  std::string old_text;  // as a person reads it ("16 KiB (found, confidence 0.998)")
  std::string new_text;
  bool changed = false;
  // Why it is not compared ("not measured in the older run"); "" otherwise.
  std::string not_compared;
  // Latencies: new over old, and the change over its standard error (the
  // two medians' errors from each cell's p10-p90 spread and sample count).
  std::optional<double> ratio, z;
};

// One run against the run before it.
struct BaselineStep {
  std::string old_file, new_file;
  std::string old_started, new_started;
  std::vector<BaselineItem> items;
};

struct BaselineComparison {
  std::string serial, model;
  std::vector<std::string> files;  // in the order the runs ran
  std::vector<BaselineStep> steps;
};

// A latency change counts when it lies this many standard errors out and
// moved at least kBaselineLeastRatio (a significant 1 % would only be noise
// that happened to be steady).
constexpr double kBaselineLeastZ = 3.0;
constexpr double kBaselineLeastRatio = 0.05;

// The two runs' differences (read with GridDetail::full for the latencies).
BaselineStep compare_runs(const SavedResult& older, const SavedResult& newer);

// Orders the runs by started_at and compares each with the one before.
// Throws Error(usage) with fewer than two runs, or runs of different drives
// (serials both given and different, or models different), naming them.
BaselineComparison compare_baseline(std::vector<SavedResult> runs);

std::string render_baseline_text(const BaselineComparison& comparison);
std::string render_baseline_json(const BaselineComparison& comparison);

}  // namespace ssdprobe
