// Infers the effective read page from a read latency grid.
//
// The read page is the unit whose boundary is the most expensive to cross:
// the step model (step_model.h) finds every significant level, e.g. a 4 KiB
// mapping unit (small step), a 16 KiB page (large step, a second NAND sense)
// and a 64 KiB plane pair (small step); the page is the level with the
// largest step, the others are reported beside it. Confidence is bootstrap
// support: the share of resampled grids (samples redrawn with replacement
// inside every cell) on which the whole procedure picks the same page.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/latency_grid.h"
#include "analysis/step_model.h"

namespace ssdprobe {

struct ReadPageOptions {
  std::vector<uint64_t> candidates;  // units to test, bytes
  int bootstrap_replicates = 200;
  double z_critical = 5.0;
  double min_relative_effect = 0.01;   // a step under 1% of a read is not a level
  double report_confidence = 0.90;     // below this the page is "not determined"
  double settle_confidence = 0.97;     // at or above this the probe may stop early
  uint64_t seed = 1;
};

struct ReadPageVerdict {
  std::optional<uint64_t> bytes;       // the read page, or nothing
  double confidence = 0.0;             // bootstrap support for `bytes` (0 when null)
  std::string evidence;                // one paragraph a person can check
  std::vector<LevelEstimate> levels;   // every significant level, ascending
  std::optional<uint64_t> leading;     // best candidate even when not confident
  double leading_support = 0.0;
  std::vector<uint64_t> contenders;    // units the next samples should decide between
  double typical_read_us = 0.0;        // median latency of the smallest reads
  double min_effect_us = 0.0;
  double largest_plausible_step_us = 0.0;
  bool settled = false;                // confident answer, or confident absence
};

ReadPageVerdict infer_read_page(const LatencyGrid& grid, const ReadPageOptions& options);

// Default candidates for a grid whose offsets step by `offset_step` and span
// `window` bytes: powers of two from 2*offset_step to window, plus the
// three-times-a-power-of-two units (12, 24, 48, 96 KiB) some TLC parts use.
std::vector<uint64_t> default_read_candidates(uint64_t offset_step, uint64_t window);

}  // namespace ssdprobe
