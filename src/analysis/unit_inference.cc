#include "analysis/unit_inference.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "analysis/stats.h"
#include "core/random.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr double kMedianVarianceFactor = M_PI / 2.0;  // var(median) ~ (pi/2) sigma^2 / n

std::vector<double> cell_medians(const LatencyGrid& grid) {
  std::vector<double> medians(grid.cell_count(), 0.0);
  for (size_t cell = 0; cell < grid.cell_count(); ++cell) medians[cell] = median(grid.samples[cell]);
  return medians;
}

// Noise per row: the median of the cells' robust sigmas. Pooling over the row
// makes it stable with only a few samples per cell.
std::vector<double> row_sigmas(const LatencyGrid& grid, const std::vector<double>& medians) {
  std::vector<double> sigmas(grid.sizes.size(), 0.0);
  for (size_t row = 0; row < grid.sizes.size(); ++row) {
    std::vector<double> cell_sigmas, row_medians;
    for (size_t j = 0; j < grid.offsets.size(); ++j) {
      const auto& samples = grid.cell(row, j);
      if (samples.size() >= 3) cell_sigmas.push_back(robust_sigma(samples));
      if (!samples.empty()) row_medians.push_back(medians[grid.cell_index(row, j)]);
    }
    const double level = row_medians.empty() ? 1.0 : median(row_medians);
    const double sigma = cell_sigmas.empty() ? 0.05 * level : median(cell_sigmas);
    sigmas[row] = std::max(sigma, 1e-3 * level + 1e-6);
  }
  return sigmas;
}

// A copy of the grid with every sample clamped to its cell median +/- 8 row
// sigmas. Clamping keeps each cell's median (the fence lies beyond it) but
// stops a multi-millisecond hiccup from becoming a resampled median in the
// bootstrap, where it would be mistaken for a level.
LatencyGrid clamp_outliers(const LatencyGrid& grid, const std::vector<double>& medians,
                           const std::vector<double>& sigmas) {
  constexpr double kFenceSigmas = 8.0;
  LatencyGrid clamped = grid;
  for (size_t cell = 0; cell < clamped.cell_count(); ++cell) {
    const double fence = kFenceSigmas * sigmas[cell / grid.offsets.size()];
    for (double& value : clamped.samples[cell]) {
      value = std::clamp(value, medians[cell] - fence, medians[cell] + fence);
    }
  }
  return clamped;
}

std::vector<double> cell_weights(const LatencyGrid& grid, const std::vector<double>& sigmas) {
  std::vector<double> weights(grid.cell_count(), 0.0);
  for (size_t cell = 0; cell < grid.cell_count(); ++cell) {
    const double n = static_cast<double>(grid.samples[cell].size());
    const double sigma = sigmas[cell / grid.offsets.size()];
    if (n > 0) weights[cell] = n / (kMedianVarianceFactor * sigma * sigma);
  }
  return weights;
}

// The median latency of the smallest IOs sampled: the first row, or on a
// first look (one row sampled alone) that row.
double typical_latency(const LatencyGrid& grid, const std::vector<double>& medians) {
  for (size_t row = 0; row < grid.sizes.size(); ++row) {
    std::vector<double> row_medians;
    for (size_t j = 0; j < grid.offsets.size(); ++j) {
      if (!grid.cell(row, j).empty()) row_medians.push_back(medians[grid.cell_index(row, j)]);
    }
    if (!row_medians.empty()) return median(row_medians);
  }
  return 0.0;
}

std::optional<uint64_t> pick_unit(const std::vector<LevelEstimate>& levels, PickRule rule) {
  if (levels.empty()) return std::nullopt;
  if (rule == PickRule::largest_unit) return levels.back().unit_bytes;  // levels are sorted by unit
  auto most_expensive = std::max_element(levels.begin(), levels.end(), [](const auto& a, const auto& b) {
    return a.step_us < b.step_us;
  });
  return most_expensive->unit_bytes;
}

// The stripe the levels give their pick (write_stripe.h), or 0.
uint64_t stripe_of_pick(const std::vector<LevelEstimate>& levels, uint64_t unit) {
  if (unit == 0) return 0;
  const auto level = stripe_level(levels, unit);
  return level ? stripe_bytes(*level) : 0;
}

// Medians of one bootstrap replicate: every cell's samples redrawn with
// replacement, so cells keep their sample counts (and the model its weights).
std::vector<double> resampled_medians(const LatencyGrid& grid, Random& random) {
  std::vector<double> medians(grid.cell_count(), 0.0);
  std::vector<double> draw;
  for (size_t cell = 0; cell < grid.cell_count(); ++cell) {
    const auto& samples = grid.samples[cell];
    if (samples.empty()) continue;
    draw.resize(samples.size());
    for (auto& value : draw) value = samples[random.below(samples.size())];
    auto middle = draw.begin() + static_cast<long>(draw.size() / 2);
    std::nth_element(draw.begin(), middle, draw.end());
    double value = *middle;
    if (draw.size() % 2 == 0) value = (value + *std::max_element(draw.begin(), middle)) / 2.0;
    medians[cell] = value;
  }
  return medians;
}

std::string describe_level(const LevelEstimate& level) {
  switch (level.cost) {
    case UnitCost::per_block_touched:
      return fmt::format("each extra {} block touched adds {:.2f} us (+/- {:.2f}, z = {:.1f})",
                         format_size(level.unit_bytes), level.step_us, level.stderr_us, level.z);
    case UnitCost::per_partial_block:
      return fmt::format("each partly covered {} block adds {:.2f} us (+/- {:.2f}, z = {:.1f})",
                         format_size(level.unit_bytes), level.step_us, level.stderr_us, level.z);
    case UnitCost::per_stripe_round:
      return fmt::format("each round of {} blocks over {} parallel units (a {} stripe) adds {:.2f} us (+/- {:.2f}, "
                         "z = {:.1f})", format_size(level.unit_bytes), level.stripe_units,
                         format_size(stripe_bytes(level)), level.step_us, level.stderr_us, level.z);
  }
  return "";
}

struct UnitRange {
  uint64_t smallest = 0, largest = 0;
};

UnitRange candidate_range(const UnitInferenceOptions& options) {
  uint64_t smallest = UINT64_MAX, largest = 0;
  for (const auto& f : options.candidates) {
    smallest = std::min(smallest, f.unit_bytes);
    largest = std::max(largest, f.unit_bytes);
  }
  return {smallest == UINT64_MAX ? 0 : smallest, largest};
}

std::string found_evidence(const UnitVerdict& v, const UnitInferenceOptions& options, const LatencyGrid& grid) {
  std::string text = fmt::format("{} {}: ", format_size(*v.leading), options.what);
  bool first = true;
  for (const auto& level : v.levels) {
    if (level.unit_bytes != *v.leading) continue;
    text += (first ? "" : "; ") + describe_level(level);
    first = false;
  }
  // Support is (k + 0.5) / (n + 1) for k of n resamples agreeing: k back from it.
  const int replicates = std::max(1, options.bootstrap_replicates);
  const long agreeing = std::lround(v.leading_support * (replicates + 1.0) - 0.5);
  text += fmt::format(" against a {:.1f} us small IO; chosen by {} of {} bootstrap resamples of {} IOs (support "
                      "{:.3f})",
                      v.typical_us, agreeing, replicates, grid.total_samples(), v.leading_support);
  std::string others;
  for (const auto& level : v.levels) {
    if (level.unit_bytes == *v.leading) continue;
    others += fmt::format("{}{} ({} level: {})", others.empty() ? "" : ", ", format_size(level.unit_bytes),
                          level.unit_bytes < *v.leading ? "smaller" : "larger", describe_level(level));
  }
  if (!others.empty()) text += "; other levels: " + others;
  const uint64_t largest = candidate_range(options).largest;
  if (*v.leading == largest) {
    text += fmt::format("; {} is the largest unit this grid can tell apart: a larger unit whose boundaries fall on "
                        "{} boundaries would look the same, so read this as 'at least {}'",
                        format_size(largest), format_size(largest), format_size(largest));
  }
  return text;
}

std::string absent_evidence(const UnitVerdict& v, const UnitInferenceOptions& options, const LatencyGrid& grid) {
  const UnitRange range = candidate_range(options);
  if (v.leading) {
    return fmt::format("not determined: {} is the best candidate for the {} but only {:.0f}% of bootstrap "
                       "resamples agree (needed {:.0f}%) after {} IOs",
                       format_size(*v.leading), options.what, 100.0 * v.leading_support,
                       100.0 * options.report_confidence, grid.total_samples());
  }
  const bool ruled_out = v.largest_plausible_step_us < v.min_effect_us;
  return fmt::format(
      "{}: no unit from {} to {} costs a significant step; the largest step the data allow is {:.2f} us "
      "({:.1f}% of a {:.1f} us small IO; a level must exceed {:.2f} us){}; {} IOs",
      ruled_out ? fmt::format("no {}", options.what) : fmt::format("{} not determined", options.what), format_size(range.smallest), format_size(range.largest),
      v.largest_plausible_step_us, v.typical_us > 0 ? 100.0 * v.largest_plausible_step_us / v.typical_us : 0.0,
      v.typical_us, v.min_effect_us,
      ruled_out ? "" : ", so a level that matters is not ruled out: a larger --budget would tell", grid.total_samples());
}

// Features worth spending the next samples on: the levels found and the
// candidates that explain most on their own.
std::vector<Feature> contenders_of(const StepModel& model, const std::vector<double>& medians,
                                   const std::vector<LevelEstimate>& levels) {
  std::vector<std::pair<double, size_t>> ranked;
  for (size_t c = 0; c < model.candidates().size(); ++c) {
    auto fit = model.fit(medians, {c});
    if (fit) ranked.emplace_back(fit->front().z, c);
  }
  std::sort(ranked.rbegin(), ranked.rend());
  std::vector<Feature> features;
  for (const auto& level : levels) features.push_back({level.unit_bytes, level.cost, level.stripe_units});
  for (size_t i = 0; i < ranked.size() && i < 3; ++i) {
    const Feature& f = model.candidates()[ranked[i].second];
    if (std::find(features.begin(), features.end(), f) == features.end()) features.push_back(f);
  }
  return features;
}

}  // namespace

std::vector<uint64_t> default_unit_candidates(uint64_t offset_step, uint64_t window) {
  std::vector<uint64_t> units;
  for (uint64_t unit = 2 * offset_step; unit <= window; unit *= 2) units.push_back(unit);
  for (uint64_t unit = 12288; unit <= window; unit *= 2) {
    if (unit >= 2 * offset_step && unit % offset_step == 0) units.push_back(unit);
  }
  std::sort(units.begin(), units.end());
  return units;
}

UnitInferenceOptions read_page_options(const std::vector<uint64_t>& units, uint64_t seed) {
  UnitInferenceOptions options;
  options.what = "read page";
  for (uint64_t unit : units) options.candidates.push_back({unit, UnitCost::per_block_touched, 0});
  options.pick = PickRule::largest_step;
  options.seed = seed;
  return options;
}

UnitInferenceOptions write_unit_options(const std::vector<uint64_t>& units, uint64_t seed) {
  UnitInferenceOptions options;
  options.what = "write unit";
  for (uint64_t unit : units) {
    options.candidates.push_back({unit, UnitCost::per_partial_block, 0});
    options.candidates.push_back({unit, UnitCost::per_block_touched, 0});
  }
  for (const Feature& feature : stripe_candidates(units)) options.candidates.push_back(feature);
  options.pick = PickRule::largest_unit;
  options.seed = seed;
  return options;
}

UnitVerdict infer_unit(const LatencyGrid& grid, const UnitInferenceOptions& options) {
  UnitVerdict verdict;
  const std::vector<double> medians = cell_medians(grid);
  const std::vector<double> sigmas = row_sigmas(grid, medians);
  const StepModel model(grid, options.candidates, cell_weights(grid, sigmas));
  const LatencyGrid clamped = clamp_outliers(grid, medians, sigmas);
  verdict.typical_us = typical_latency(grid, medians);
  verdict.min_effect_us = options.min_relative_effect * verdict.typical_us;
  const SelectionRules rules{options.z_critical, verdict.min_effect_us};

  verdict.levels = model.select(medians, rules, &verdict.fit_dispersion);
  verdict.leading = pick_unit(verdict.levels, options.pick);
  // A unit is ruled out by its own per-block levels; stripe rounds (several
  // informed by the largest writes only) have their own bound in the stripe's answer.
  verdict.largest_plausible_step_us = model.largest_plausible_step_beside(
      medians, {}, [](const Feature& f) { return f.cost != UnitCost::per_stripe_round; });
  verdict.contenders = contenders_of(model, medians, verdict.levels);

  Random random(options.seed * 0x9e3779b97f4a7c15ull + grid.total_samples());
  std::map<uint64_t, int> votes;  // unit -> replicates; 0 = no unit
  std::map<std::pair<uint64_t, uint64_t>, int> stripe_votes;  // (unit, its stripe or 0) -> replicates
  for (int r = 0; r < options.bootstrap_replicates; ++r) {
    const auto levels = model.select(resampled_medians(clamped, random), rules);
    const uint64_t unit = pick_unit(levels, options.pick).value_or(0);
    ++votes[unit];
    ++stripe_votes[{unit, stripe_of_pick(levels, unit)}];
  }
  const int replicates = std::max(1, options.bootstrap_replicates);
  verdict.leading_support = (votes[verdict.leading.value_or(0)] + 0.5) / (replicates + 1.0);
  const uint64_t leading = verdict.leading.value_or(0);
  const double stripe_support =
      (stripe_votes[{leading, stripe_of_pick(verdict.levels, leading)}] + 0.5) / (replicates + 1.0);

  if (verdict.leading && verdict.leading_support >= options.report_confidence) {
    verdict.bytes = verdict.leading;
    verdict.confidence = verdict.leading_support;
    verdict.evidence = found_evidence(verdict, options, grid);
    verdict.settled = verdict.leading_support >= options.settle_confidence;
    verdict.state = UnitState::found;
  } else {
    verdict.settled = !verdict.leading && verdict.largest_plausible_step_us < verdict.min_effect_us;
    verdict.state = verdict.settled ? UnitState::absent : UnitState::undetermined;
    if (verdict.settled) verdict.searched_up_to_bytes = candidate_range(options).largest;
    verdict.evidence = absent_evidence(verdict, options, grid);
  }
  verdict.stripe = infer_stripe({model, medians, verdict.levels, verdict.bytes, verdict.state == UnitState::absent,
                                 stripe_support, replicates, grid.total_samples(), options.report_confidence,
                                 verdict.min_effect_us});
  return verdict;
}

}  // namespace ssdprobe
