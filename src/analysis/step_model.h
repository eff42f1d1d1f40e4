// The boundary model of IO latency, fitted by weighted least squares on
// per-cell medians:
//
//   median(size_i, offset_j) = alpha_i + sum over features F of beta_F * x_F(i, j)
//
// A feature is a unit L and a way L can cost: per L-block the IO touches
// (reads: crossing an L boundary senses another page), per L-block the IO
// covers only partly (writes: a read-modify-write of that block), or per
// round of L-blocks over U parallel units (writes on a drive that programs
// consecutive pages on U dies at once: the busiest die programs
// ceil(blocks touched / U) of them, so cost steps once per U blocks, and a
// partly covered stripe of U blocks costs nothing of itself). alpha_i
// absorbs everything that depends on the size alone (transfer time, command
// overhead), so only the offset-dependent part can make beta_F non-zero.
// Features are chosen by forward selection with a z-test (standard errors
// inflated by the fit's own dispersion, so a model that fits badly cannot
// claim significance it does not have).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "analysis/latency_grid.h"

namespace ssdprobe {

enum class UnitCost {
  per_block_touched,   // x = number of L-blocks [offset, offset+size) overlaps
  per_partial_block,   // x = number of L-blocks it overlaps but does not cover
  per_stripe_round,    // x = ceil(L-blocks it overlaps / stripe_units): rounds over the parallel units
};
const char* unit_cost_name(UnitCost cost);

struct Feature {
  uint64_t unit_bytes = 0;
  UnitCost cost = UnitCost::per_block_touched;
  uint32_t stripe_units = 0;  // per_stripe_round: parallel units one round of L-blocks spans; else 0
  bool operator==(const Feature&) const = default;
};
double feature_value(const Feature& feature, uint64_t offset, uint64_t size);

struct LevelEstimate {
  uint64_t unit_bytes = 0;
  UnitCost cost = UnitCost::per_block_touched;
  uint32_t stripe_units = 0;  // per_stripe_round: the stripe is unit_bytes x stripe_units
  double step_us = 0.0;    // beta: added latency per extra block touched
  double stderr_us = 0.0;  // dispersion-corrected standard error of beta
  double z = 0.0;          // step / stderr
};

struct SelectionRules {
  double z_critical = 5.0;     // a level must be this many standard errors above zero
  double min_effect_us = 0.0;  // ... and at least this large to matter
};

class StepModel {
 public:
  // `weights[cell]` are inverse variances of the cell medians (0 = no data).
  // The geometry (sizes, offsets) comes from the grid; candidates whose
  // column does not vary inside any row (unidentifiable) are dropped.
  StepModel(const LatencyGrid& grid, const std::vector<Feature>& candidates, std::vector<double> weights);

  const std::vector<Feature>& candidates() const { return candidates_; }

  // Fits exactly these levels (indices into candidates()); nullopt when the
  // design is singular or has no residual degrees of freedom.
  std::optional<std::vector<LevelEstimate>> fit(std::span<const double> medians,
                                                const std::vector<size_t>& chosen) const;
  // Forward selection (with backward pruning) of significant levels. With
  // `dispersion`, also the weighted residual sum of squares per degree of
  // freedom of the selected fit: near 1 when the levels explain the grid down
  // to its noise, well above 1 when structure is left unexplained.
  std::vector<LevelEstimate> select(std::span<const double> medians, const SelectionRules& rules,
                                    double* dispersion = nullptr) const;
  // For each candidate `which` accepts, fitted beside the features of
  // `beside` (levels already selected; none: the candidate alone): step + 2
  // stderr, the largest step the data cannot rule out (about 97.5% one-sided)
  // once those levels are accounted for. 0 when no such candidate can be fitted.
  double largest_plausible_step_beside(std::span<const double> medians, const std::vector<Feature>& beside,
                                       const std::function<bool(const Feature&)>& which) const;

 private:
  struct Moments {
    std::vector<double> cross;  // X'Wy per candidate
    double total_ss = 0.0;      // row-centred y'Wy
  };
  Moments moments(std::span<const double> medians) const;
  std::optional<std::vector<LevelEstimate>> fit_moments(const Moments& m, const std::vector<size_t>& chosen,
                                                        double* rss) const;

  std::vector<Feature> candidates_;
  std::vector<double> weights_;
  std::vector<std::vector<double>> centred_columns_;  // [candidate][cell], row-centred with weights
  std::vector<std::vector<double>> gram_;             // X'WX over all candidates
  std::vector<size_t> row_of_cell_;
  size_t rows_ = 0;
  size_t used_cells_ = 0;
  size_t rows_with_data_ = 0;  // rows with at least one weighted cell: one intercept each
};

}  // namespace ssdprobe
