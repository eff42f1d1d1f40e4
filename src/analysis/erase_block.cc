#include "analysis/erase_block.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "analysis/stats.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

struct PhaseScore {
  int on = 0, slow_on = 0;
  size_t phase = 0;
};

PhaseScore best_phase(const std::vector<bool>& slow, size_t period) {
  std::vector<int> on(period, 0), hits(period, 0);
  for (size_t k = 0; k < slow.size(); ++k) {
    ++on[k % period];
    hits[k % period] += slow[k] ? 1 : 0;
  }
  PhaseScore best;
  for (size_t phase = 0; phase < period; ++phase) {
    // Rate first; among equal rates the phase with more writes.
    const double rate = on[phase] ? static_cast<double>(hits[phase]) / on[phase] : 0.0;
    const double best_rate = best.on ? static_cast<double>(best.slow_on) / best.on : -1.0;
    if (rate > best_rate || (rate == best_rate && on[phase] > best.on)) best = {on[phase], hits[phase], phase};
  }
  return best;
}

std::string absent(const WriteStream& stream, uint64_t searched, const std::string& why) {
  return fmt::format("no periodic write stall found up to {} ({}): {} sequential writes of {}", format_size(searched),
                     why, stream.latency_us.size(), format_size(stream.chunk_bytes));
}

}  // namespace

double binomial_tail(int n, int k, double p) {
  if (k <= 0) return 1.0;
  if (k > n) return 0.0;
  p = std::clamp(p, 1e-12, 1.0 - 1e-12);
  double total = 0.0;
  for (int i = k; i <= n; ++i) {
    const double log_term = std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                            i * std::log(p) + (n - i) * std::log1p(-p);
    total += std::exp(log_term);
  }
  return std::min(1.0, total);
}

EraseBlockVerdict infer_erase_block(const WriteStream& stream, int min_periods) {
  EraseBlockVerdict verdict;
  const auto& y = stream.latency_us;
  const size_t n = y.size();
  const size_t max_period = n / static_cast<size_t>(std::max(2, min_periods));
  verdict.searched_up_to_bytes = max_period * stream.chunk_bytes;
  if (max_period < 2) {
    verdict.evidence = absent(stream, verdict.searched_up_to_bytes, "the stream is too short");
    return verdict;
  }
  const double center = median(y);
  const double threshold = quantile(y, 0.75) + std::max(4.0 * robust_sigma(y), 0.15 * center);
  std::vector<bool> slow(n);
  int slow_total = 0;
  for (size_t k = 0; k < n; ++k) slow_total += (slow[k] = y[k] > threshold) ? 1 : 0;

  double tests = 0.0;
  for (size_t period = 2; period <= max_period; ++period) {
    tests += static_cast<double>(period);
    const PhaseScore score = best_phase(slow, period);
    if (score.on < min_periods || score.slow_on < 0.75 * score.on) continue;
    const double off_rate = static_cast<double>(slow_total - score.slow_on + 1) / static_cast<double>(n - score.on + 2);
    const double p_value = std::min(1.0, tests * binomial_tail(score.on, score.slow_on, off_rate));
    if (p_value > 0.01) continue;
    std::vector<double> stalls;
    for (size_t k = score.phase; k < n; k += period) stalls.push_back(y[k] - center);
    verdict.bytes = period * stream.chunk_bytes;
    verdict.confidence = std::min(0.999, 1.0 - p_value);
    verdict.stall_phase_bytes = score.phase * stream.chunk_bytes;
    verdict.stall_us = median(stalls);
    verdict.evidence = fmt::format(
        "a sequential write stream stalls every {} ({} writes of {}): {} of {} writes on that period are slow "
        "(median +{:.0f} us over a {:.0f} us write) against {:.2f}% elsewhere; chance p < {:.1e} after {:.0f} "
        "(period, phase) tests; searched up to {}",
        format_size(*verdict.bytes), period, format_size(stream.chunk_bytes), score.slow_on, score.on, verdict.stall_us,
        center, 100.0 * off_rate, std::max(p_value, 1e-300), tests, format_size(verdict.searched_up_to_bytes));
    return verdict;
  }
  verdict.evidence = absent(stream, verdict.searched_up_to_bytes,
                            slow_total == 0 ? "no write stands out from the stream"
                                            : fmt::format("{} slow writes follow no period", slow_total));
  return verdict;
}

}  // namespace ssdprobe
