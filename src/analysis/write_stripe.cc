#include "analysis/write_stripe.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kSmallestProgramUnit = 4096;
constexpr uint32_t kStripeUnits[] = {2, 4, 8, 16};

bool is_stripe_of(const Feature& f, uint64_t unit) {
  return f.cost == UnitCost::per_stripe_round && f.unit_bytes == unit;
}

// The largest stripe (of `unit`, or of any unit) the model can fit (its
// column varies inside some row), or 0.
uint64_t largest_stripe_shown(const StepModel& model, std::optional<uint64_t> unit = std::nullopt) {
  uint64_t largest = 0;
  for (const Feature& f : model.candidates()) {
    if (f.cost != UnitCost::per_stripe_round || (unit && f.unit_bytes != *unit)) continue;
    largest = std::max(largest, f.unit_bytes * f.stripe_units);
  }
  return largest;
}

bool any_stripe_candidate(const StepModel& model) {
  return std::any_of(model.candidates().begin(), model.candidates().end(),
                     [](const Feature& f) { return f.cost == UnitCost::per_stripe_round; });
}

std::vector<Feature> features_of(const std::vector<LevelEstimate>& levels) {
  std::vector<Feature> features;
  for (const auto& level : levels) features.push_back({level.unit_bytes, level.cost, level.stripe_units});
  return features;
}

// What a partly covered stripe could still cost beside the levels found: its
// own per-partial-block or per-block-touched level (step + 2 stderr).
double partial_stripe_bound(const StripeInputs& in, uint64_t stripe) {
  return in.model.largest_plausible_step_beside(in.medians, features_of(in.levels), [stripe](const Feature& f) {
    return f.unit_bytes == stripe && f.cost != UnitCost::per_stripe_round;
  });
}

std::string agreeing_text(const StripeInputs& in) {
  const long agreeing = std::lround(in.support * (in.replicates + 1.0) - 0.5);
  return fmt::format("{} of {} bootstrap resamples (support {:.3f})", agreeing, in.replicates, in.support);
}

StripeVerdict found_stripe(const StripeInputs& in, const LevelEstimate& level) {
  StripeVerdict v;
  const uint64_t stripe = stripe_bytes(level);
  v.bytes = stripe;
  v.units = level.stripe_units;
  v.state = UnitState::found;
  v.confidence = in.support;
  v.evidence = fmt::format(
      "{} stripe: consecutive {} program units are programmed on {} parallel units at once, so each further round of "
      "{} of them adds {:.2f} us (+/- {:.2f}, z = {:.1f}) while a write that covers a stripe only in part costs "
      "nothing of itself (at most {:.2f} us, step + 2 standard errors, beside the levels found): the write unit is the "
      "{} program unit, the stripe is {} x {}; chosen with the write unit by {}",
      format_size(stripe), format_size(level.unit_bytes), level.stripe_units, level.stripe_units, level.step_us,
      level.stderr_us, level.z, partial_stripe_bound(in, stripe), format_size(level.unit_bytes), level.stripe_units,
      format_size(level.unit_bytes), agreeing_text(in));
  return v;
}

StripeVerdict undetermined(std::string evidence) {
  StripeVerdict v;
  v.state = UnitState::undetermined;
  v.evidence = std::move(evidence);
  return v;
}

// No stripe level at the write unit: ruled out when no round over any
// number of units tried could add a step that matters beside the levels.
StripeVerdict no_stripe_level(const StripeInputs& in, uint64_t unit) {
  const uint64_t searched = largest_stripe_shown(in.model, unit);
  if (searched == 0) {
    return undetermined(fmt::format("not determined: the write grid's sizes cannot show a stripe of several {} write "
                                    "units", format_size(unit)));
  }
  const double bound = in.model.largest_plausible_step_beside(
      in.medians, features_of(in.levels), [unit](const Feature& f) { return is_stripe_of(f, unit); });
  const std::string rounds = fmt::format("a round of {} program units over 2, 4, 8 or 16 parallel units (stripes up to {})",
                                         format_size(unit), format_size(searched));
  if (bound >= in.min_effect_us) {
    return undetermined(fmt::format("not determined: no stripe level was found (the levels found explain the grid "
                                    "without one), but {} costing up to {:.2f} us is not ruled out (a level must "
                                    "exceed {:.2f} us); {} IOs", rounds, bound, in.min_effect_us, in.ios));
  }
  StripeVerdict v;
  v.state = UnitState::absent;
  v.searched_up_to_bytes = searched;
  v.evidence = fmt::format("no stripe: {} adds no step that matters beside the levels found (at most {:.2f} us, step + "
                           "2 standard errors, against a floor of {:.2f} us); {} IOs",
                           rounds, bound, in.min_effect_us, in.ios);
  return v;
}

// No write unit: a stripe is ruled out too when no round over any unit,
// fitted alone, could cost a step that matters.
StripeVerdict beside_no_unit(const StripeInputs& in) {
  const double bound = in.model.largest_plausible_step_beside(
      in.medians, {}, [](const Feature& f) { return f.cost == UnitCost::per_stripe_round; });
  if (bound >= in.min_effect_us) {
    return undetermined(fmt::format("not determined: no write unit matters, but a round of program units over "
                                    "parallel units costing up to {:.2f} us is not ruled out (a level must exceed "
                                    "{:.2f} us); {} IOs", bound, in.min_effect_us, in.ios));
  }
  StripeVerdict v;
  v.state = UnitState::absent;
  v.searched_up_to_bytes = largest_stripe_shown(in.model);
  v.evidence = fmt::format("no stripe: no write unit either, and no round of program units over parallel units "
                           "costs a step that matters (at most {:.2f} us, against a floor of {:.2f} us); {} IOs",
                           bound, in.min_effect_us, in.ios);
  return v;
}

}  // namespace

std::vector<Feature> stripe_candidates(const std::vector<uint64_t>& units) {
  std::vector<Feature> features;
  for (uint64_t unit : units) {
    if (unit < kSmallestProgramUnit) continue;
    for (uint32_t count : kStripeUnits) {
      if (std::find(units.begin(), units.end(), unit * count) == units.end()) continue;
      features.push_back({unit, UnitCost::per_stripe_round, count});
    }
  }
  return features;
}

std::optional<LevelEstimate> stripe_level(const std::vector<LevelEstimate>& levels, uint64_t unit) {
  std::optional<LevelEstimate> best;
  for (const auto& level : levels) {
    if (level.cost != UnitCost::per_stripe_round || level.unit_bytes != unit) continue;
    if (!best || level.step_us > best->step_us) best = level;
  }
  return best;
}

uint64_t stripe_bytes(const LevelEstimate& level) { return level.unit_bytes * level.stripe_units; }

StripeVerdict infer_stripe(const StripeInputs& in) {
  if (!any_stripe_candidate(in.model)) return StripeVerdict{};
  if (in.unit_ruled_out) return beside_no_unit(in);
  if (!in.write_unit) {
    return undetermined("not determined: the write unit was not determined, and a stripe is told only beside one");
  }
  const auto level = stripe_level(in.levels, *in.write_unit);
  if (!level) return no_stripe_level(in, *in.write_unit);
  if (in.support >= in.report_confidence) return found_stripe(in, *level);
  return undetermined(fmt::format("not determined: the write grid leans to a {} stripe ({} x {}) but only {:.0f}% of "
                                  "bootstrap resamples agree on it and the write unit (needed {:.0f}%) after {} IOs",
                                  format_size(stripe_bytes(*level)), level->stripe_units,
                                  format_size(level->unit_bytes), 100.0 * in.support, 100.0 * in.report_confidence,
                                  in.ios));
}

}  // namespace ssdprobe
