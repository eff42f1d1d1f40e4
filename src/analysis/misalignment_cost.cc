#include "analysis/misalignment_cost.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>

#include "analysis/stats.h"
#include "core/block_math.h"
#include "core/random.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

// Sizes and periods above this are not a layout (and keep every phase sum
// far from overflow).
constexpr uint64_t kLargestBytes = 1ull << 40;
// More requests per period than this means a unit or block far finer than
// any grid column: refuse rather than loop for long.
constexpr uint64_t kMostRequests = 1ull << 16;
constexpr size_t kSubstitutionsNamed = 6;

// Where each request k of one period lands: its phase (against the period)
// and the grid column whose median stands for it, at S and aligned.
struct Placement {
  std::vector<uint64_t> start_phases, aligned_phases;
  std::vector<size_t> start_columns, aligned_columns;
  std::map<uint64_t, size_t> substitutions;  // phase -> stand-in column (sparse grids only)
  std::string failure;                       // why no cost can be stated; empty when placed
};

Placement failed(std::string why) {
  Placement placement;
  placement.failure = std::move(why);
  return placement;
}

// Phases (start + k*step) mod period over one full period of k.
std::vector<uint64_t> phases(uint64_t start, uint64_t step, uint64_t period) {
  const uint64_t count = period / std::gcd(period, step);
  std::vector<uint64_t> values;
  values.reserve(count);
  uint64_t phase = start % period;
  for (uint64_t k = 0; k < count; ++k) {
    values.push_back(phase);
    phase = (phase + step % period) % period;
  }
  return values;
}

std::optional<size_t> find_row(const LatencyGrid& grid, uint64_t size) {
  const auto it = std::find(grid.sizes.begin(), grid.sizes.end(), size);
  if (it == grid.sizes.end()) return std::nullopt;
  return static_cast<size_t>(it - grid.sizes.begin());
}

std::string size_list(const std::vector<uint64_t>& sizes) {
  std::string text;
  for (uint64_t size : sizes) text += (text.empty() ? "" : ", ") + format_size(size);
  return text;
}

// A cell a median can be taken from: samples, all of them real latencies.
bool usable_cell(const std::vector<double>& samples) {
  return !samples.empty() &&
         std::all_of(samples.begin(), samples.end(), [](double v) { return std::isfinite(v) && v > 0.0; });
}

// Dense grid: offsets 0, step, 2*step... so phase p is column p / step.
Placement dense_placement(const LatencyGrid& grid, size_t row, const MisalignmentCostQuery& query) {
  const auto& offsets = grid.offsets;
  const char* not_dense = "the grid's offsets are not an even sweep from 0 (a write grid needs sparse_offsets)";
  if (offsets.size() < 2 || offsets[0] != 0 || offsets[1] == 0 || offsets.back() >= kLargestBytes) {
    return failed(not_dense);
  }
  const uint64_t step = offsets[1];
  for (size_t j = 0; j < offsets.size(); ++j) {
    if (offsets[j] != j * step) return failed(not_dense);
  }
  if (query.start_bytes % step != 0 || query.request_alignment % step != 0) {
    return failed(fmt::format("the start and the layer's block must be multiples of the grid's {} offset step",
                              format_size(step)));
  }
  const uint64_t period = offsets.back() + step;
  Placement placement;
  placement.start_phases = phases(query.start_bytes, query.request_alignment, period);
  placement.aligned_phases = phases(0, query.request_alignment, period);
  for (uint64_t p : placement.start_phases) placement.start_columns.push_back(p / step);
  for (uint64_t p : placement.aligned_phases) placement.aligned_columns.push_back(p / step);
  std::vector<size_t> columns = placement.start_columns;
  columns.insert(columns.end(), placement.aligned_columns.begin(), placement.aligned_columns.end());
  for (size_t column : columns) {
    if (!usable_cell(grid.cell(row, column))) {
      return failed(fmt::format("the cell of {} at offset {} holds no usable samples",
                                format_size(query.request_bytes), format_size(offsets[column])));
    }
  }
  return placement;
}

// How a request at phase p (mod u) covers units of u.
struct Coverage {
  uint64_t touched = 0;
  bool partial_first = false, partial_last = false;
  bool operator==(const Coverage&) const = default;
};

Coverage coverage(uint64_t phase, uint64_t size, uint64_t unit) {
  const uint64_t q = phase % unit;
  return {units_touched(q, size, unit), q != 0, (q + size) % unit != 0};
}

std::string describe(const Coverage& c, uint64_t unit) {
  const char* ends = c.partial_first && c.partial_last ? "partial at both ends"
                     : c.partial_first                 ? "partial first unit"
                     : c.partial_last                  ? "partial last unit"
                                                       : "whole units";
  return fmt::format("{} {} unit{}, {}", c.touched, format_size(unit), c.touched == 1 ? "" : "s", ends);
}

// Alignment of a phase within u: log2 of the largest power of two dividing
// it (u's own for phase 0).
int alignment_bits(uint64_t phase, uint64_t unit) { return std::countr_zero(phase == 0 ? unit : phase); }

// The column standing in for phase q (< u): same coverage of u, preferring
// the same phase, then the same alignment, then the smallest offset.
std::optional<size_t> stand_in(const LatencyGrid& grid, size_t row, uint64_t q, uint64_t size, uint64_t unit) {
  const Coverage wanted = coverage(q, size, unit);
  std::optional<size_t> best;
  auto rank = [&](size_t j) {
    const uint64_t o = grid.offsets[j] % unit;
    return std::make_tuple(o != q, std::abs(alignment_bits(o, unit) - alignment_bits(q, unit)), grid.offsets[j]);
  };
  for (size_t j = 0; j < grid.offsets.size(); ++j) {
    if (!usable_cell(grid.cell(row, j)) || coverage(grid.offsets[j], size, unit) != wanted) continue;
    if (!best || rank(j) < rank(*best)) best = j;
  }
  return best;
}

// Sparse (write) grid: each phase mod u stands in for by a column with the
// same coverage of u; the period is lcm(u, b), as only phase mod u matters.
Placement sparse_placement(const LatencyGrid& grid, size_t row, const MisalignmentCostQuery& query) {
  if (!query.unit) return failed("the write unit is not known, so the write grid's sparse offsets cannot stand in for the phases needed");
  const uint64_t unit = *query.unit;
  if (unit / std::gcd(unit, query.request_alignment) > kMostRequests) {
    return failed(fmt::format("a {} unit with {} blocks has too long a period", format_size(unit),
                              format_size(query.request_alignment)));
  }
  Placement placement;
  placement.start_phases = phases(query.start_bytes, query.request_alignment, unit);
  placement.aligned_phases = phases(0, query.request_alignment, unit);
  auto place = [&](const std::vector<uint64_t>& needed, std::vector<size_t>& columns) {
    for (uint64_t q : needed) {
      const auto column = stand_in(grid, row, q, query.request_bytes, unit);
      if (!column) {
        placement.failure = fmt::format("no measured column of the {} row covers units like a request at phase {} ({})",
                                        format_size(query.request_bytes), format_size(q),
                                        describe(coverage(q, query.request_bytes, unit), unit));
        return;
      }
      columns.push_back(*column);
      if (grid.offsets[*column] != q) placement.substitutions.emplace(q, *column);
    }
  };
  place(placement.start_phases, placement.start_columns);
  if (placement.failure.empty()) place(placement.aligned_phases, placement.aligned_columns);
  return placement;
}

// The cells a placement uses, each once, and how many requests of each
// side land in it. Both means sum over this one list in one order, so equal
// counts give bit-identical means (an aligned start is exactly 1).
struct UsedCells {
  std::vector<size_t> columns;
  std::vector<double> start_weight, aligned_weight;  // share of the period's requests
};

UsedCells used_cells(const Placement& placement) {
  std::map<size_t, std::pair<uint64_t, uint64_t>> counts;
  for (size_t c : placement.start_columns) ++counts[c].first;
  for (size_t c : placement.aligned_columns) ++counts[c].second;
  UsedCells used;
  const double start_total = static_cast<double>(placement.start_columns.size());
  const double aligned_total = static_cast<double>(placement.aligned_columns.size());
  for (const auto& [column, count] : counts) {
    used.columns.push_back(column);
    used.start_weight.push_back(static_cast<double>(count.first) / start_total);
    used.aligned_weight.push_back(static_cast<double>(count.second) / aligned_total);
  }
  return used;
}

struct Means {
  double at_start = 0, aligned = 0;
};

Means weighted_means(const UsedCells& used, const std::vector<double>& medians) {
  Means means;
  for (size_t i = 0; i < medians.size(); ++i) {
    means.at_start += used.start_weight[i] * medians[i];
    means.aligned += used.aligned_weight[i] * medians[i];
  }
  return means;
}

// The cells that stand for one phase: the phase's own cell or, pooled, every
// cell of the row that is the same experiment (below).
using Pool = std::vector<std::vector<double>>;

double pool_median(const Pool& pool) {
  std::vector<double> all;
  for (const auto& cell : pool) all.insert(all.end(), cell.begin(), cell.end());
  return median(all);
}

// One bootstrap replicate of a pool's median, resampling at both levels:
// cells with replacement, then each drawn cell's samples with replacement.
// Redrawing the cells keeps what differs between cells (the sampling round,
// the slot) in the interval; pooled samples redrawn as one bag would not,
// and would call a 0.04 % difference between two flat sets of cells
// significant.
double resampled_pool_median(const Pool& pool, Random& random, std::vector<double>& draw) {
  draw.clear();
  for (size_t c = 0; c < pool.size(); ++c) {
    const auto& cell = pool[random.below(pool.size())];
    for (size_t i = 0; i < cell.size(); ++i) draw.push_back(cell[random.below(cell.size())]);
  }
  auto middle = draw.begin() + static_cast<long>(draw.size() / 2);
  std::nth_element(draw.begin(), middle, draw.end());
  double value = *middle;
  if (draw.size() % 2 == 0) value = (value + *std::max_element(draw.begin(), middle)) / 2.0;
  return value;
}

// How a request of `size` bytes at `phase` meets every power-of-two
// boundary from `step` to `period`: the units of each size it touches. Two
// phases with the same signature cross exactly the same kinds of boundary,
// so under the model the unit inference itself uses (latency depends on
// which candidate boundaries a request crosses) they cost the same.
std::vector<uint64_t> boundary_signature(uint64_t phase, uint64_t size, uint64_t step, uint64_t period) {
  std::vector<uint64_t> touched;
  for (uint64_t u = step; u != 0 && u <= period; u *= 2) touched.push_back(units_touched(phase, size, u));
  return touched;
}

// The pools the used cells stand for, each listed once (a replicate must
// redraw a pool once: several phases sharing one pool move together), and
// which pool each used cell reads.
struct PooledCells {
  std::vector<Pool> pools;
  std::vector<size_t> pool_of;  // per used column
};

// Dense grids: each used phase stands for all the cells of its row with its
// boundary signature. A start's 32 phases each hold only the few samples one
// cell got; pooling states the cost from all the cells that are the same
// experiment, without assuming anything the page inference does not.
PooledCells pooled_cells(const LatencyGrid& grid, size_t row, const UsedCells& used) {
  const uint64_t step = grid.offsets[1], period = grid.offsets.back() + step, size = grid.sizes[row];
  std::map<std::vector<uint64_t>, size_t> index;
  PooledCells pooled;
  for (size_t j = 0; j < grid.offsets.size(); ++j) {
    if (!usable_cell(grid.cell(row, j))) continue;
    const auto [it, added] = index.try_emplace(boundary_signature(grid.offsets[j], size, step, period),
                                               pooled.pools.size());
    if (added) pooled.pools.emplace_back();
    pooled.pools[it->second].push_back(grid.cell(row, j));
  }
  for (size_t column : used.columns) {
    pooled.pool_of.push_back(index.at(boundary_signature(grid.offsets[column], size, step, period)));
  }
  return pooled;
}

PooledCells raw_cells(const LatencyGrid& grid, size_t row, const UsedCells& used) {
  PooledCells cells;
  for (size_t column : used.columns) {
    cells.pool_of.push_back(cells.pools.size());
    cells.pools.push_back({grid.cell(row, column)});
  }
  return cells;
}

std::vector<double> used_medians(const PooledCells& cells, const std::vector<double>& pool_medians) {
  std::vector<double> medians;
  for (size_t pool : cells.pool_of) medians.push_back(pool_medians[pool]);
  return medians;
}

// The used cells' samples clamped to their median +/- 8 sigmas of the row
// (the median of the row's cells' robust sigmas), as unit_inference does
// before its bootstrap. The medians stay; what goes is the small-sample
// artefact: a cell of 3 samples holding one multi-millisecond hiccup would
// make the hiccup the resampled median in 26 % of replicates, where drawing
// fresh samples from the drive would almost never do so.
PooledCells clamped_cells(const LatencyGrid& grid, size_t row, PooledCells cells,
                          const std::vector<double>& medians) {
  constexpr double kFenceSigmas = 8.0;
  std::vector<double> sigmas;
  for (size_t j = 0; j < grid.offsets.size(); ++j) {
    if (grid.cell(row, j).size() >= 3) sigmas.push_back(robust_sigma(grid.cell(row, j)));
  }
  const double level = median(medians);
  const double sigma = sigmas.empty() ? 0.05 * level : std::max(median(sigmas), 1e-3 * level);
  const double fence = kFenceSigmas * sigma;
  for (size_t i = 0; i < cells.pools.size(); ++i) {
    for (auto& cell : cells.pools[i]) {
      for (double& value : cell) value = std::clamp(value, medians[i] - fence, medians[i] + fence);
    }
  }
  return cells;
}

// 2.5 % and 97.5 % quantiles of the ratio over bootstrap replicates.
std::pair<double, double> ratio_interval(const PooledCells& cells, const UsedCells& used, uint64_t seed) {
  Random random(seed);
  std::vector<double> ratios, medians(cells.pools.size()), draw;
  ratios.reserve(kMisalignmentResamples);
  for (int r = 0; r < kMisalignmentResamples; ++r) {
    for (size_t i = 0; i < cells.pools.size(); ++i) medians[i] = resampled_pool_median(cells.pools[i], random, draw);
    const Means means = weighted_means(used, used_medians(cells, medians));
    ratios.push_back(means.at_start / means.aligned);
  }
  std::sort(ratios.begin(), ratios.end());
  return {sorted_quantile(ratios, 0.025), sorted_quantile(ratios, 0.975)};
}

double crossing_share(const std::vector<uint64_t>& phase_list, uint64_t size, uint64_t unit) {
  uint64_t crossing = 0;
  for (uint64_t p : phase_list) crossing += p % unit + size > unit;
  return static_cast<double>(crossing) / static_cast<double>(phase_list.size());
}

std::string substitution_text(const LatencyGrid& grid, const Placement& placement, uint64_t unit) {
  if (placement.substitutions.empty()) return "";
  std::string pairs;
  size_t named = 0;
  for (const auto& [phase, column] : placement.substitutions) {
    if (named++ == kSubstitutionsNamed) break;
    pairs += fmt::format("{}{} by {}", pairs.empty() ? "" : ", ", format_size(phase), format_size(grid.offsets[column]));
  }
  if (placement.substitutions.size() > kSubstitutionsNamed) {
    pairs += fmt::format(" and {} more", placement.substitutions.size() - kSubstitutionsNamed);
  }
  return fmt::format("; the write grid lacks some phases, so columns that touch as many {} units with the same "
                     "partial ends stand in: phase {}",
                     format_size(unit), pairs);
}

bool same_phases(const Placement& placement) {
  std::vector<uint64_t> start = placement.start_phases, aligned = placement.aligned_phases;
  std::sort(start.begin(), start.end());
  std::sort(aligned.begin(), aligned.end());
  return start == aligned;
}

std::string evidence_text(const LatencyGrid& grid, const MisalignmentCostQuery& query, const Placement& placement,
                          const MisalignmentCost& cost) {
  const uint64_t n = query.request_bytes, b = query.request_alignment;
  std::string text = fmt::format(
      "{} requests every {} from disk byte {} ({} past a {} boundary) take {:.2f}x the time of an aligned start "
      "(95% interval {:.2f}-{:.2f} over {} bootstrap resamples; {}): the {} row's cell medians average {:.1f} us "
      "over the {} request phase{} of one period against {:.1f} us aligned",
      format_size(n), format_size(b), query.start_bytes, format_size(query.start_bytes % b), format_size(b), cost.ratio,
      cost.ratio_low, cost.ratio_high, kMisalignmentResamples,
      cost.significant ? "significant" : "not significant: the interval reaches 1", format_size(n),
      cost.at_start_median_us, placement.start_phases.size(), placement.start_phases.size() == 1 ? "" : "s",
      cost.aligned_median_us);
  if (same_phases(placement)) text += " (the start's requests land at the very phases an aligned layer's do)";
  if (!query.sparse_offsets) text += "; each phase's cell is pooled with the row's cells that cross the same boundaries";
  if (cost.crossing_share) {
    text += fmt::format("; {:.0f}% of them cross a {} boundary against {:.0f}% aligned", 100.0 * *cost.crossing_share,
                        format_size(*query.unit), 100.0 * *cost.aligned_crossing_share);
  }
  if (query.unit) text += substitution_text(grid, placement, *query.unit);
  return text;
}

MisalignmentCost not_determined(const MisalignmentCostQuery& query, const std::string& why) {
  MisalignmentCost cost;
  cost.evidence = fmt::format("the cost of {} requests from disk byte {} is not determined: {}",
                              format_size(query.request_bytes), query.start_bytes, why);
  return cost;
}

// Why the query or the grid cannot be used at all; empty when they can.
std::string unusable(const LatencyGrid& grid, const MisalignmentCostQuery& query) {
  if (grid.samples.size() != grid.sizes.size() * grid.offsets.size() || grid.offsets.empty()) {
    return "the grid is empty or malformed";
  }
  if (query.request_bytes == 0 || query.request_bytes > kLargestBytes) return "the request size is out of range";
  if (query.request_alignment == 0 || query.request_alignment > kLargestBytes) return "the layer's block is out of range";
  if (query.unit && (*query.unit == 0 || *query.unit > kLargestBytes)) return "the unit is out of range";
  return "";
}

}  // namespace

MisalignmentCost misalignment_cost(const LatencyGrid& grid, const MisalignmentCostQuery& query) {
  if (const std::string why = unusable(grid, query); !why.empty()) return not_determined(query, why);
  const auto row = find_row(grid, query.request_bytes);
  if (!row) {
    return not_determined(query, fmt::format("{} is not a request size of this grid (it has {})",
                                             format_size(query.request_bytes), size_list(grid.sizes)));
  }
  const Placement placement =
      query.sparse_offsets ? sparse_placement(grid, *row, query) : dense_placement(grid, *row, query);
  if (!placement.failure.empty()) return not_determined(query, placement.failure);

  const UsedCells used = used_cells(placement);
  PooledCells cells = query.sparse_offsets ? raw_cells(grid, *row, used) : pooled_cells(grid, *row, used);
  std::vector<double> pool_medians;
  for (const auto& pool : cells.pools) pool_medians.push_back(pool_median(pool));
  const Means means = weighted_means(used, used_medians(cells, pool_medians));

  MisalignmentCost cost;
  cost.determined = true;
  cost.at_start_median_us = means.at_start;
  cost.aligned_median_us = means.aligned;
  cost.ratio = means.at_start / means.aligned;
  const uint64_t bootstrap_seed = query.seed * 0x9e3779b97f4a7c15ull + grid.total_samples();  // as unit_inference's
  std::tie(cost.ratio_low, cost.ratio_high) =
      ratio_interval(clamped_cells(grid, *row, std::move(cells), pool_medians), used, bootstrap_seed);
  cost.significant = cost.ratio_low > 1.0;
  if (query.unit) {
    cost.crossing_share = crossing_share(placement.start_phases, query.request_bytes, *query.unit);
    cost.aligned_crossing_share = crossing_share(placement.aligned_phases, query.request_bytes, *query.unit);
  }
  cost.evidence = evidence_text(grid, query, placement, cost);
  return cost;
}

std::vector<uint64_t> misalignment_request_sizes(const LatencyGrid& grid, uint64_t layer_block,
                                                 std::optional<uint64_t> unit) {
  std::vector<uint64_t> sizes{layer_block};
  if (unit && *unit != layer_block && find_row(grid, *unit)) sizes.push_back(*unit);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

}  // namespace ssdprobe
