#include "analysis/erase_block.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "analysis/stats.h"
#include "core/plural.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

struct PhaseScore {
  int on = 0, slow_on = 0;
  size_t phase = 0;
};

// Per phase of `period`: how many writes fall on it, and how many are slow.
struct PhaseCounts {
  std::vector<int> on, hits;
};

PhaseCounts count_phases(const std::vector<bool>& slow, size_t period) {
  PhaseCounts c{std::vector<int>(period, 0), std::vector<int>(period, 0)};
  for (size_t k = 0; k < slow.size(); ++k) {
    ++c.on[k % period];
    c.hits[k % period] += slow[k] ? 1 : 0;
  }
  return c;
}

PhaseScore best_phase(const std::vector<bool>& slow, size_t period) {
  const auto [on, hits] = count_phases(slow, period);
  PhaseScore best;
  for (size_t phase = 0; phase < period; ++phase) {
    // Rate first; among equal rates the phase with more writes.
    const double rate = on[phase] ? static_cast<double>(hits[phase]) / on[phase] : 0.0;
    const double best_rate = best.on ? static_cast<double>(best.slow_on) / best.on : -1.0;
    if (rate > best_rate || (rate == best_rate && on[phase] > best.on)) best = {on[phase], hits[phase], phase};
  }
  return best;
}

// A write is slow above the fast writes' 25th percentile plus the larger of
// 6 of their sigmas and half of it. The fast mode is measured from the
// bottom of the distribution (5th to 25th percentile), so the threshold
// holds while up to about two thirds of the writes stall (small erase blocks
// stall often; a threshold from the median or the 75th percentile would sit
// inside the stalls and see none). Half a write is the floor because opening
// an erase block costs an erase (milliseconds against a write's hundreds of
// microseconds), while smaller regular bumps, e.g. a read-modify-write every
// few writes when the chunk is not a whole number of program units, are
// not erase blocks.
double slow_threshold(const std::vector<double>& y) {
  const double q05 = quantile(y, 0.05), q25 = quantile(y, 0.25);
  const double fast_sigma = (q25 - q05) / 0.971;  // normal: q25 - q05 = 0.971 sigma
  return q25 + std::max(6.0 * fast_sigma, 0.5 * q25);
}

// Phases of `period` that stall as reliably as the best one. When the erase
// block is not a whole number of stream writes (a 6 MiB block written in
// 72 KiB chunks: 85.33 writes), stalls land on h evenly spaced phases of the
// shortest whole period p that repeats exactly, and the block is p / h
// writes long.
std::vector<size_t> stalling_phases(const std::vector<bool>& slow, size_t period, double min_rate) {
  const auto [on, hits] = count_phases(slow, period);
  std::vector<size_t> phases;
  for (size_t phase = 0; phase < period; ++phase) {
    if (on[phase] > 0 && hits[phase] >= min_rate * on[phase]) phases.push_back(phase);
  }
  return phases;
}

// True when `phases` (ascending) split `period` into near-equal gaps, as the
// floors of m * period / h do (gaps differ by at most one write).
bool evenly_spaced(const std::vector<size_t>& phases, size_t period) {
  if (phases.size() < 2) return false;
  size_t shortest = period, longest = 0;
  for (size_t i = 0; i < phases.size(); ++i) {
    const size_t next = i + 1 < phases.size() ? phases[i + 1] : phases[0] + period;
    shortest = std::min(shortest, next - phases[i]);
    longest = std::max(longest, next - phases[i]);
  }
  return longest - shortest <= 1;
}

std::string absent(const WriteStream& stream, uint64_t searched, const std::string& why) {
  return fmt::format("no periodic write stall found up to {} ({}): {} sequential writes of {}", format_size(searched),
                     why, stream.latency_us.size(), format_size(stream.chunk_bytes));
}

// Which writes are slow (above slow_threshold), and how many.
struct SlowWrites {
  std::vector<bool> slow;
  int total = 0;
};

SlowWrites find_slow_writes(const std::vector<double>& y) {
  const double threshold = slow_threshold(y);
  SlowWrites s{std::vector<bool>(y.size()), 0};
  for (size_t k = 0; k < y.size(); ++k) s.total += (s.slow[k] = y[k] > threshold) ? 1 : 0;
  return s;
}

// A period whose best phase stalls reliably and improbably by chance: its
// slow rate off that phase, its corrected p-value, and the (period, phase)
// tests counted up to it.
struct StallPeriod {
  size_t period = 0;
  PhaseScore score;
  double off_rate = 0.0, p_value = 1.0, tests = 0.0;
};

// The smallest period from 2 to max_period whose best phase has at least
// min_periods writes, at least 75% of them slow, at p <= 0.01 after the
// correction for every (period, phase) pair tried so far.
std::optional<StallPeriod> find_stall_period(const SlowWrites& s, size_t max_period, int min_periods) {
  const size_t n = s.slow.size();
  double tests = 0.0;
  for (size_t period = 2; period <= max_period; ++period) {
    tests += static_cast<double>(period);
    const PhaseScore score = best_phase(s.slow, period);
    if (score.on < min_periods || score.slow_on < 0.75 * score.on) continue;
    const double off_rate = static_cast<double>(s.total - score.slow_on + 1) / static_cast<double>(n - score.on + 2);
    const double p_value = std::min(1.0, tests * binomial_tail(score.on, score.slow_on, off_rate));
    if (p_value > 0.01) continue;
    return StallPeriod{period, score, off_rate, p_value, tests};
  }
  return std::nullopt;
}

// "85 writes of 72 KiB", or with several stalls per period "3 stalls evenly
// spread over every 256 writes of 72 KiB: 85.33 writes each".
std::string stall_cadence(size_t period, size_t per_period, uint64_t chunk_bytes) {
  return per_period == 1 ? fmt::format("{} writes of {}", period, format_size(chunk_bytes))
                         : fmt::format("{} stalls evenly spread over every {} writes of {}: {:.2f} writes each",
                                       per_period, period, format_size(chunk_bytes),
                                       static_cast<double>(period) / static_cast<double>(per_period));
}

// The verdict on a stall period found in the stream whose median write takes
// `center`.
void describe_erase_block(EraseBlockVerdict& verdict, const WriteStream& stream, const SlowWrites& s,
                          const StallPeriod& found, double center) {
  const auto& y = stream.latency_us;
  const size_t period = found.period;
  const PhaseScore& score = found.score;
  std::vector<double> stalls;
  for (size_t k = score.phase; k < y.size(); k += period) stalls.push_back(y[k] - center);
  const std::vector<size_t> phases = stalling_phases(s.slow, period, 0.75);
  const size_t per_period = evenly_spaced(phases, period) ? phases.size() : 1;
  // Whole logical sectors: p * chunk / h is exact when the stalls come from
  // a block of that length; round the rest to 512 B.
  const uint64_t block = (period * stream.chunk_bytes / per_period + 256) / 512 * 512;
  verdict.bytes = block;
  verdict.confidence = std::min(0.999, 1.0 - found.p_value);
  verdict.stall_phase_bytes = score.phase * stream.chunk_bytes;
  verdict.stall_us = median(stalls);
  verdict.evidence = fmt::format(
      "a sequential write stream stalls every {} ({}): {} of {} writes on that period are slow "
      "(median +{:.0f} us over a {:.0f} us write) against {:.2f}% elsewhere; chance p < {:.1e} after {:.0f} "
      "(period, phase) tests; searched up to {}",
      format_size(block), stall_cadence(period, per_period, stream.chunk_bytes), score.slow_on, score.on,
      verdict.stall_us, center, 100.0 * found.off_rate, std::max(found.p_value, 1e-300), found.tests,
      format_size(verdict.searched_up_to_bytes));
}

std::string no_period_reason(int slow_total) {
  if (slow_total == 0) return "no write stands out from the stream";
  return counted(static_cast<uint64_t>(slow_total), "slow write") +
         (slow_total == 1 ? " follows no period" : " follow no period");
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
  const size_t max_period = y.size() / static_cast<size_t>(std::max(2, min_periods));
  verdict.searched_up_to_bytes = max_period * stream.chunk_bytes;
  if (max_period < 2) {
    verdict.evidence = absent(stream, verdict.searched_up_to_bytes, "the stream is too short");
    return verdict;
  }
  const double center = median(y);
  const SlowWrites slow = find_slow_writes(y);
  if (const std::optional<StallPeriod> found = find_stall_period(slow, max_period, min_periods)) {
    describe_erase_block(verdict, stream, slow, *found, center);
    return verdict;
  }
  verdict.evidence = absent(stream, verdict.searched_up_to_bytes, no_period_reason(slow.total));
  return verdict;
}

}  // namespace ssdprobe
