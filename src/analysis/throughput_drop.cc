#include "analysis/throughput_drop.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/stats.h"

namespace ssdprobe {
namespace {

// Prefix sums of x and x^2, so each side's squared error is O(1).
struct PrefixSums {
  std::vector<double> sum{0.0}, squares{0.0};
  explicit PrefixSums(std::span<const double> x) {
    for (double v : x) {
      sum.push_back(sum.back() + v);
      squares.push_back(squares.back() + v * v);
    }
  }
  double squared_error(size_t from, size_t to) const {  // around the mean of [from, to)
    const double n = static_cast<double>(to - from);
    const double s = sum[to] - sum[from];
    return (squares[to] - squares[from]) - s * s / n;
  }
};

// The split k (samples [0, k) and [k, n)) with the least total squared error
// of the log-latencies, each side at least `min_before` / `min_after` long.
std::optional<size_t> best_split(std::span<const double> log_us, size_t min_before, size_t min_after) {
  const size_t n = log_us.size();
  if (n < min_before + min_after) return std::nullopt;
  const PrefixSums prefix(log_us);
  size_t best = min_before;
  double best_error = INFINITY;
  for (size_t k = min_before; k + min_after <= n; ++k) {
    const double error = prefix.squared_error(0, k) + prefix.squared_error(k, n);
    if (error < best_error) {
      best_error = error;
      best = k;
    }
  }
  return best;
}

// How much a side slowed from its first quarter to its last (medians); 1
// for a side too short to tell.
double drift(std::span<const double> side) {
  const size_t quarter = side.size() / 4;
  if (quarter < 4) return 1.0;
  return median(side.last(quarter)) / median(side.first(quarter));
}

}  // namespace

double later_slower_fraction(std::span<const double> earlier, std::span<const double> later) {
  if (earlier.empty() || later.empty()) return 0.0;
  std::vector<double> sorted(earlier.begin(), earlier.end());
  std::sort(sorted.begin(), sorted.end());
  double pairs = 0.0;
  for (double b : later) {
    const auto below = std::lower_bound(sorted.begin(), sorted.end(), b) - sorted.begin();
    const auto not_above = std::upper_bound(sorted.begin(), sorted.end(), b) - sorted.begin();
    pairs += static_cast<double>(below) + 0.5 * static_cast<double>(not_above - below);
  }
  return pairs / (static_cast<double>(earlier.size()) * static_cast<double>(later.size()));
}

std::optional<ThroughputDrop> find_sustained_drop(std::span<const double> latencies_us, const DropRule& rule) {
  std::vector<double> log_us;
  log_us.reserve(latencies_us.size());
  for (double us : latencies_us) log_us.push_back(std::log(std::max(us, 1e-3)));
  const auto split = best_split(log_us, rule.min_before_samples, rule.min_after_samples);
  if (!split) return std::nullopt;
  const auto before = latencies_us.first(*split);
  const auto after = latencies_us.subspan(*split);
  const double needed_after = rule.min_after_fraction * static_cast<double>(before.size());
  if (static_cast<double>(after.size()) < needed_after) return std::nullopt;
  ThroughputDrop drop{*split, median(before), median(after), 0.0};
  if (drop.after_median_us < rule.min_ratio * drop.before_median_us) return std::nullopt;
  const double step = drop.after_median_us / drop.before_median_us;
  if (std::max(drift(before), drift(after)) > std::sqrt(step)) return std::nullopt;
  std::vector<double> earlier(before.begin(), before.end());
  std::sort(earlier.begin(), earlier.end());
  const double trim = std::clamp(rule.earlier_trim, 0.0, 0.9);
  const auto kept = earlier.size() - static_cast<size_t>(trim * static_cast<double>(earlier.size()));
  drop.separation = later_slower_fraction(std::span<const double>(earlier).first(kept), after);
  if (drop.separation < rule.min_separation) return std::nullopt;
  return drop;
}

DropRule suggestive_drop_rule() {
  DropRule rule;
  rule.min_separation = 0.75;
  rule.min_after_samples = 16;
  rule.min_after_fraction = 0.05;
  return rule;
}

}  // namespace ssdprobe
