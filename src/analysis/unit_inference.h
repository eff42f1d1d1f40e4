// Infers a unit (the read page, the write unit) from a latency grid.
//
// The step model (step_model.h) finds every significant feature: e.g. for
// reads a 4 KiB mapping unit (small step), a 16 KiB page (large step, a
// second NAND sense) and a 64 KiB plane pair (small step). A pick rule then
// names the unit: for reads the feature with the largest step (the most
// expensive boundary to cross), for writes the largest unit whose partial
// coverage costs a read-modify-write (the program unit; smaller ones are
// mapping units). The others are reported beside it. On a drive that
// programs consecutive program units on several parallel units at once, a
// write's cost steps once per stripe (one round over the units) rather than
// per program unit: that level names the program unit as the write unit and
// its stripe beside it (StripeVerdict), never the stripe as the write unit,
// because a partly covered stripe costs nothing of itself. Confidence is bootstrap
// support: the share of resampled grids (samples redrawn with replacement
// inside every cell) on which the whole procedure picks the same unit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/latency_grid.h"
#include "analysis/step_model.h"
#include "analysis/verdicts.h"
#include "analysis/write_stripe.h"

namespace ssdprobe {

enum class PickRule { largest_step, largest_unit };

struct UnitInferenceOptions {
  std::string what = "read page";      // for the evidence text
  std::vector<Feature> candidates;
  PickRule pick = PickRule::largest_step;
  int bootstrap_replicates = 200;
  double z_critical = 5.0;
  double min_relative_effect = 0.01;   // a step under 1% of a small IO is not a level
  double report_confidence = 0.90;     // below this the unit is "not determined"
  double settle_confidence = 0.97;     // at or above this the probe may stop early
  uint64_t seed = 1;
};

struct UnitVerdict {
  std::optional<uint64_t> bytes;       // the unit, or nothing
  double confidence = 0.0;             // bootstrap support for `bytes` (0 when null)
  std::string evidence;                // one paragraph a person can check
  std::vector<LevelEstimate> levels;   // every significant feature, ascending
  std::optional<uint64_t> leading;     // best candidate even when not confident
  double leading_support = 0.0;
  std::vector<Feature> contenders;     // features the next samples should decide between
  double typical_us = 0.0;             // median latency of the smallest IOs
  double min_effect_us = 0.0;
  double largest_plausible_step_us = 0.0;
  double fit_dispersion = 0.0;         // residual / dof of the chosen levels (step_model.h)
  bool settled = false;                // confident answer, or confident absence
  std::optional<uint64_t> searched_up_to_bytes;  // ruled out: the largest candidate unit the grid could show
  UnitState state = UnitState::undetermined;  // found, absent or undetermined (verdicts.h)
  StripeVerdict stripe;                // writes: the stripe beside the write unit (write_stripe.h)
};

UnitVerdict infer_unit(const LatencyGrid& grid, const UnitInferenceOptions& options);

// What a not determined verdict leaned to (DetectedUnit::best_candidate_bytes)
// and its bootstrap support; nothing (0) for any other state.
inline std::optional<uint64_t> best_candidate(const UnitVerdict& v) {
  return v.state == UnitState::undetermined ? v.leading : std::nullopt;
}
inline double best_candidate_support(const UnitVerdict& v) { return best_candidate(v) ? v.leading_support : 0.0; }

// Candidate units for a grid whose offsets step by `offset_step` and span
// `window` bytes: powers of two from 2*offset_step to window, plus the
// three-times-a-power-of-two units (12, 24, 48, 96... KiB) some TLC parts use.
std::vector<uint64_t> default_unit_candidates(uint64_t offset_step, uint64_t window);

// Read-page inference: one per-block-touched feature per candidate unit.
UnitInferenceOptions read_page_options(const std::vector<uint64_t>& units, uint64_t seed);
// Write-unit inference: a per-partial-block and a per-block-touched feature
// per unit, and a per-stripe-round feature per program unit of at least
// 4 KiB over 2, 4, 8 or 16 parallel units whose stripe is still a candidate unit.
UnitInferenceOptions write_unit_options(const std::vector<uint64_t>& units, uint64_t seed);

}  // namespace ssdprobe
