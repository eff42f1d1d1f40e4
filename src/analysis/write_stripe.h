// The stripe beside a write unit. A drive that places consecutive program
// units on U parallel units (dies, LUNs) programs a write's units on all of
// them at once: the write costs its busiest unit's programs, ceil(program
// units touched / U) of them, so its cost steps once per stripe of U program
// units, while a write that covers a program unit only in part still costs a
// whole program of it. The write grid shows this as a per_stripe_round level
// at the program unit (step_model.h). The program unit is the write unit
// (partial coverage of it costs extra); the stripe is where cost steps with
// no penalty for covering it in part, so it is reported beside the write
// unit, never as it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/step_model.h"
#include "analysis/verdicts.h"

namespace ssdprobe {

// found: a per_stripe_round level at the write unit, with bootstrap support
// (for the write unit and this stripe together) >= the report confidence;
// absent: no such level, and no round over 2, 4, 8 or 16 units (stripes up to
// searched_up_to_bytes) could add a step that matters beside the levels
// found (or the write unit itself is ruled out: no level of any kind
// could matter, stripe rounds included); undetermined: otherwise, and whenever the write unit is not
// determined; not_measured: the inference had no stripe candidates (reads).
struct StripeVerdict {
  std::optional<uint64_t> bytes;  // program unit x units
  uint32_t units = 0;             // program units per stripe (found)
  UnitState state = UnitState::not_measured;
  double confidence = 0.0;
  std::string evidence;
  std::optional<uint64_t> searched_up_to_bytes;  // absent: the largest stripe the grid could show
};

// Stripe features for the write grid: program units of at least 4 KiB (no
// NAND page is smaller) over 2, 4, 8 or 16 parallel units, whose stripe is one
// of `units` (so the grid's sizes reach it).
std::vector<Feature> stripe_candidates(const std::vector<uint64_t>& units);

// The per_stripe_round level at `unit` (the largest step when there are
// several), and the stripe it makes.
std::optional<LevelEstimate> stripe_level(const std::vector<LevelEstimate>& levels, uint64_t unit);
uint64_t stripe_bytes(const LevelEstimate& level);

struct StripeInputs {
  const StepModel& model;
  std::span<const double> medians;
  const std::vector<LevelEstimate>& levels;  // the full data's selected levels
  std::optional<uint64_t> write_unit;        // set only when the write unit was found
  bool unit_ruled_out = false;               // no level at all, and none that matters is plausible
  double support = 0.0;                      // bootstrap support of (write unit, its stripe or none)
  int replicates = 200;
  uint64_t ios = 0;
  double report_confidence = 0.90;
  double min_effect_us = 0.0;
};

StripeVerdict infer_stripe(const StripeInputs& in);

}  // namespace ssdprobe
