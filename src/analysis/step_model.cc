#include "analysis/step_model.h"

#include <algorithm>
#include <cmath>

#include "core/block_math.h"

namespace ssdprobe {
namespace {

// Inverts a small symmetric positive definite matrix by Gauss-Jordan with
// partial pivoting; nullopt when (numerically) singular.
std::optional<std::vector<std::vector<double>>> invert(std::vector<std::vector<double>> a) {
  const size_t n = a.size();
  std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1.0;
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r) {
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    }
    if (std::fabs(a[pivot][col]) < 1e-12) return std::nullopt;
    std::swap(a[pivot], a[col]);
    std::swap(inv[pivot], inv[col]);
    const double scale = a[col][col];
    for (size_t k = 0; k < n; ++k) {
      a[col][k] /= scale;
      inv[col][k] /= scale;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == col || a[r][col] == 0.0) continue;
      const double factor = a[r][col];
      for (size_t k = 0; k < n; ++k) {
        a[r][k] -= factor * a[col][k];
        inv[r][k] -= factor * inv[col][k];
      }
    }
  }
  return inv;
}

}  // namespace

const char* unit_cost_name(UnitCost cost) {
  switch (cost) {
    case UnitCost::per_block_touched: return "per block touched";
    case UnitCost::per_partial_block: return "per partly covered block";
    case UnitCost::per_stripe_round: return "per round of blocks over the parallel units";
  }
  return "per block touched";
}

double feature_value(const Feature& feature, uint64_t offset, uint64_t size) {
  const uint64_t unit = feature.unit_bytes;
  if (feature.cost == UnitCost::per_block_touched) return static_cast<double>(units_touched(offset, size, unit));
  if (feature.cost == UnitCost::per_stripe_round) {
    const uint64_t units = std::max<uint64_t>(1, feature.stripe_units);
    return static_cast<double>((units_touched(offset, size, unit) + units - 1) / units);
  }
  const uint64_t end = offset + size;
  const uint64_t touched = units_touched(offset, size, unit);
  if (touched == 1) return (offset % unit != 0 || end % unit != 0) ? 1.0 : 0.0;
  return static_cast<double>((offset % unit != 0 ? 1 : 0) + (end % unit != 0 ? 1 : 0));
}

StepModel::StepModel(const LatencyGrid& grid, const std::vector<Feature>& candidates, std::vector<double> weights)
    : weights_(std::move(weights)), rows_(grid.sizes.size()) {
  const size_t columns = grid.offsets.size();
  row_of_cell_.resize(grid.cell_count());
  for (size_t cell = 0; cell < grid.cell_count(); ++cell) {
    row_of_cell_[cell] = cell / columns;
    if (weights_[cell] > 0) ++used_cells_;
  }
  // A row without data (a first look samples one row alone) fits no
  // intercept and so costs no degree of freedom.
  for (size_t row = 0; row < rows_; ++row) {
    for (size_t j = 0; j < columns; ++j) {
      if (weights_[grid.cell_index(row, j)] > 0) {
        ++rows_with_data_;
        break;
      }
    }
  }
  for (const Feature& feature : candidates) {
    std::vector<double> column(grid.cell_count(), 0.0);
    double variation = 0.0;
    for (size_t row = 0; row < rows_; ++row) {
      double sum_w = 0.0, sum_wx = 0.0;
      for (size_t j = 0; j < columns; ++j) {
        const size_t cell = grid.cell_index(row, j);
        column[cell] = feature_value(feature, grid.offsets[j], grid.sizes[row]);
        sum_w += weights_[cell];
        sum_wx += weights_[cell] * column[cell];
      }
      const double mean = sum_w > 0 ? sum_wx / sum_w : 0.0;
      for (size_t j = 0; j < columns; ++j) {
        const size_t cell = grid.cell_index(row, j);
        column[cell] -= mean;
        variation += weights_[cell] * column[cell] * column[cell];
      }
    }
    if (variation <= 1e-12) continue;  // no offset in any row moves this count
    candidates_.push_back(feature);
    centred_columns_.push_back(std::move(column));
  }
  const size_t k = candidates_.size();
  gram_.assign(k, std::vector<double>(k, 0.0));
  for (size_t a = 0; a < k; ++a) {
    for (size_t b = a; b < k; ++b) {
      double sum = 0.0;
      for (size_t cell = 0; cell < weights_.size(); ++cell) {
        sum += weights_[cell] * centred_columns_[a][cell] * centred_columns_[b][cell];
      }
      gram_[a][b] = gram_[b][a] = sum;
    }
  }
}

StepModel::Moments StepModel::moments(std::span<const double> medians) const {
  Moments m;
  m.cross.assign(candidates_.size(), 0.0);
  std::vector<double> row_w(rows_, 0.0), row_wy(rows_, 0.0);
  double wyy = 0.0;
  for (size_t cell = 0; cell < weights_.size(); ++cell) {
    const double w = weights_[cell];
    if (w <= 0) continue;
    const double y = medians[cell];
    row_w[row_of_cell_[cell]] += w;
    row_wy[row_of_cell_[cell]] += w * y;
    wyy += w * y * y;
    for (size_t c = 0; c < candidates_.size(); ++c) m.cross[c] += w * centred_columns_[c][cell] * y;
  }
  m.total_ss = wyy;
  for (size_t row = 0; row < rows_; ++row) {
    if (row_w[row] > 0) m.total_ss -= row_wy[row] * row_wy[row] / row_w[row];
  }
  return m;
}

std::optional<std::vector<LevelEstimate>> StepModel::fit_moments(const Moments& m, const std::vector<size_t>& chosen,
                                                                 double* rss) const {
  const size_t k = chosen.size();
  const double dof = static_cast<double>(used_cells_) - static_cast<double>(rows_with_data_) - static_cast<double>(k);
  if (dof < 1) return std::nullopt;
  std::vector<std::vector<double>> g(k, std::vector<double>(k));
  for (size_t a = 0; a < k; ++a) {
    for (size_t b = 0; b < k; ++b) g[a][b] = gram_[chosen[a]][chosen[b]];
  }
  auto inverse = invert(g);
  if (!inverse) return std::nullopt;
  std::vector<double> beta(k, 0.0);
  double explained = 0.0;
  for (size_t a = 0; a < k; ++a) {
    for (size_t b = 0; b < k; ++b) beta[a] += (*inverse)[a][b] * m.cross[chosen[b]];
    explained += beta[a] * m.cross[chosen[a]];
  }
  const double residual = std::max(0.0, m.total_ss - explained);
  if (rss) *rss = residual;
  // Weights are inverse variances, so a correct model has residual/dof near 1;
  // more than that means extra noise or misfit, and every error bar grows.
  const double dispersion = std::max(1.0, residual / dof);
  std::vector<LevelEstimate> levels(k);
  for (size_t a = 0; a < k; ++a) {
    levels[a].unit_bytes = candidates_[chosen[a]].unit_bytes;
    levels[a].cost = candidates_[chosen[a]].cost;
    levels[a].stripe_units = candidates_[chosen[a]].stripe_units;
    levels[a].step_us = beta[a];
    levels[a].stderr_us = std::sqrt(std::max(0.0, (*inverse)[a][a]) * dispersion);
    levels[a].z = levels[a].stderr_us > 0 ? beta[a] / levels[a].stderr_us : 0.0;
  }
  return levels;
}

std::optional<std::vector<LevelEstimate>> StepModel::fit(std::span<const double> medians,
                                                         const std::vector<size_t>& chosen) const {
  return fit_moments(moments(medians), chosen, nullptr);
}

std::vector<LevelEstimate> StepModel::select(std::span<const double> medians, const SelectionRules& rules,
                                             double* dispersion) const {
  const Moments m = moments(medians);
  auto passes = [&](const LevelEstimate& level) {
    return level.z >= rules.z_critical && level.step_us >= rules.min_effect_us;
  };
  std::vector<size_t> chosen;
  std::vector<LevelEstimate> current;
  double current_rss = m.total_ss;
  for (size_t round = 0; round < candidates_.size(); ++round) {
    // Forward: the candidate that explains most of what is left.
    std::optional<size_t> best;
    double best_rss = current_rss;
    std::vector<LevelEstimate> best_fit;
    for (size_t c = 0; c < candidates_.size(); ++c) {
      if (std::find(chosen.begin(), chosen.end(), c) != chosen.end()) continue;
      std::vector<size_t> trial = chosen;
      trial.push_back(c);
      double rss = 0.0;
      auto levels = fit_moments(m, trial, &rss);
      if (!levels || levels->back().step_us <= 0.0) continue;
      if (rss < best_rss) {
        best_rss = rss;
        best = c;
        best_fit = *levels;
      }
    }
    if (!best || !passes(best_fit.back())) break;
    chosen.push_back(*best);
    current = best_fit;
    current_rss = best_rss;
    // Backward: a level the newcomer made redundant leaves again.
    for (size_t i = 0; i + 1 < chosen.size();) {
      if (passes(current[i])) {
        ++i;
        continue;
      }
      chosen.erase(chosen.begin() + static_cast<long>(i));
      auto refit = fit_moments(m, chosen, &current_rss);
      if (!refit) break;
      current = *refit;
      i = 0;
    }
  }
  std::sort(current.begin(), current.end(),
            [](const LevelEstimate& a, const LevelEstimate& b) { return a.unit_bytes < b.unit_bytes; });
  if (dispersion) {
    const double dof = static_cast<double>(used_cells_) - static_cast<double>(rows_with_data_) - static_cast<double>(chosen.size());
    *dispersion = dof >= 1 ? current_rss / dof : 0.0;
  }
  return current;
}

double StepModel::largest_plausible_step_beside(std::span<const double> medians, const std::vector<Feature>& beside,
                                                const std::function<bool(const Feature&)>& which) const {
  std::vector<size_t> chosen;
  for (const Feature& feature : beside) {
    const auto it = std::find(candidates_.begin(), candidates_.end(), feature);
    if (it != candidates_.end()) chosen.push_back(static_cast<size_t>(it - candidates_.begin()));
  }
  const Moments m = moments(medians);
  double largest = 0.0;
  for (size_t c = 0; c < candidates_.size(); ++c) {
    if (!which(candidates_[c]) || std::find(chosen.begin(), chosen.end(), c) != chosen.end()) continue;
    std::vector<size_t> trial = chosen;
    trial.push_back(c);
    auto levels = fit_moments(m, trial, nullptr);
    if (levels) largest = std::max(largest, levels->back().step_us + 2.0 * levels->back().stderr_us);
  }
  return largest;
}

}  // namespace ssdprobe
