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
//
// The same numbers give the smallest stall the stream sees reliably: one
// that lifts the fastest writes it lands on (the 5th percentile) over the
// threshold, so that about 95 % of the block starts count as slow and the
// 75 % rule holds with room (at the margin over q25 alone only half of
// such periods pass).
struct SlowThreshold {
  double us = 0.0;        // a write above it is slow
  double floor_us = 0.0;  // the smallest stall seen reliably: us - 5th percentile
  bool spread = false;    // the writes' own spread (6 sigmas) set the margin, not the half-write floor
};

SlowThreshold slow_threshold(const std::vector<double>& y) {
  const double q05 = quantile(y, 0.05), q25 = quantile(y, 0.25);
  const double six_sigmas = 6.0 * (q25 - q05) / 0.971;  // normal: q25 - q05 = 0.971 sigma
  const double threshold = q25 + std::max(six_sigmas, 0.5 * q25);
  return {threshold, threshold - q05, six_sigmas > 0.5 * q25};
}

// Opening an erase block costs a block erase: about 1-2 ms on SLC NAND, 3-10
// ms on TLC and QLC. A stream whose writes spread so widely that a stall of
// this much hides among them (a full drive where every write waits a
// different while for garbage collection) rules no erase block out.
constexpr double kSmallestEraseStallUs = 1000.0;

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

// The absent verdict's words, with the stall size it rules out when the
// stream was long enough to search.
std::string absent(const WriteStream& stream, uint64_t searched, const std::string& why,
                   std::optional<double> floor_us = std::nullopt) {
  const std::string size = floor_us ? fmt::format(" of +{:.0f} us or more", *floor_us) : "";
  return fmt::format("no periodic write stall{} found up to {} ({}): {} sequential writes of {}", size,
                     format_size(searched), why, stream.latency_us.size(), format_size(stream.chunk_bytes));
}

// Not "no stall up to": the writes' spread hides stalls the size of an erase.
std::string hidden_evidence(const WriteStream& stream, uint64_t searched, double floor_us, const std::string& why) {
  const auto& y = stream.latency_us;
  return fmt::format("not determined: the stream's writes took {:.0f} to {:.0f} us (5th to 95th percentile, median "
                     "{:.0f} us), a spread that hides any periodic stall under +{:.0f} us, where opening an erase "
                     "block costs about a millisecond or more; none larger recurs up to {} ({}): {} sequential writes "
                     "of {}",
                     quantile(y, 0.05), quantile(y, 0.95), median(y), floor_us, format_size(searched), why, y.size(),
                     format_size(stream.chunk_bytes));
}

// Which writes are slow (above the threshold), and how many.
struct SlowWrites {
  std::vector<bool> slow;
  int total = 0;
  SlowThreshold threshold;
};

SlowWrites find_slow_writes(const std::vector<double>& y) {
  SlowWrites s{std::vector<bool>(y.size()), 0, slow_threshold(y)};
  for (size_t k = 0; k < y.size(); ++k) s.total += (s.slow[k] = y[k] > s.threshold.us) ? 1 : 0;
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

// Stalls that recur every `period` writes on one phase, but on too few of
// its writes to name an erase block.
struct Recurrence {
  size_t period = 0;
  int on = 0, slow = 0;
};

// The slow rate off a phase that has `slow_on` slow writes of `on`, with
// one pseudo-count each way (a stream with no other slow write is not a
// rate of zero).
double off_phase_rate(const SlowWrites& s, int on, int slow_on) {
  return static_cast<double>(s.total - slow_on + 1) / static_cast<double>(static_cast<int>(s.slow.size()) - on + 2);
}

// The writes on the phase of `score` modulo `d`, and how many are slow.
Recurrence on_phase_of(const SlowWrites& s, size_t d, const PhaseScore& score) {
  Recurrence r{d, 0, 0};
  for (size_t k = score.phase % d; k < s.slow.size(); k += d) {
    ++r.on;
    r.slow += s.slow[k] ? 1 : 0;
  }
  return r;
}

double rate_of(const Recurrence& r) { return static_cast<double>(r.slow) / static_cast<double>(r.on); }

// Whether the stalls on `score` (phase of `period`) are a chance subset of
// a shorter period's: for a divisor d of the period, the other writes on the
// same phase of d stall well above the rest of the stream (the stalls recur
// every d writes), while the period's phase is no more slow than the best of
// its period / d phases of d would be at d's own rate. A garbage-collection
// storm does this: every write waits 1-3 ms, an erase stall lifts only some
// block starts above the threshold, and some multiple of the block finds a
// phase where 5 of its 6 happen to be slow. Of the divisors that qualify,
// the recurrence is the shortest whose slow rate is at least 3/4 of the
// highest: a divisor of the recurring period mixes its stalling phase with
// as many or more that never stall, so it has at most half the rate.
std::optional<Recurrence> chance_subset_of(const SlowWrites& s, size_t period, const PhaseScore& score) {
  std::vector<size_t> divisors;
  for (size_t d = 2; d <= period / 2; ++d) {
    if (period % d == 0) divisors.push_back(d);
  }
  std::vector<Recurrence> recurring;
  for (size_t d : divisors) {
    const Recurrence r = on_phase_of(s, d, score);
    const int others_on = r.on - score.on, others_slow = r.slow - score.slow_on;
    if (others_on <= 0) continue;
    const double p_recurs = static_cast<double>(divisors.size()) *
                            binomial_tail(others_on, others_slow, off_phase_rate(s, r.on, r.slow));
    if (p_recurs > 0.01) continue;
    const double p_one = binomial_tail(score.on, score.slow_on, rate_of(r));
    const double p_best_of = 1.0 - std::pow(1.0 - p_one, static_cast<double>(period / d));
    if (p_best_of > 0.01) recurring.push_back(r);
  }
  double highest = 0.0;
  for (const Recurrence& r : recurring) highest = std::max(highest, rate_of(r));
  for (const Recurrence& r : recurring) {
    if (rate_of(r) >= 0.75 * highest) return r;
  }
  return std::nullopt;
}

// The smallest period from 2 to max_period whose best phase has at least
// min_periods writes, at least 75% of them slow, at p <= 0.01 after the
// correction for every (period, phase) pair tried so far, and is not a
// chance subset of a shorter period's stalls (the first such shorter
// period goes to `unreliable`).
std::optional<StallPeriod> find_stall_period(const SlowWrites& s, size_t max_period, int min_periods,
                                             std::optional<Recurrence>& unreliable) {
  double tests = 0.0;
  for (size_t period = 2; period <= max_period; ++period) {
    tests += static_cast<double>(period);
    const PhaseScore score = best_phase(s.slow, period);
    if (score.on < min_periods || score.slow_on < 0.75 * score.on) continue;
    const double off_rate = off_phase_rate(s, score.on, score.slow_on);
    const double p_value = std::min(1.0, tests * binomial_tail(score.on, score.slow_on, off_rate));
    if (p_value > 0.01) continue;
    if (auto shorter = chance_subset_of(s, period, score)) {
      if (!unreliable) unreliable = shorter;
      continue;
    }
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

// Not "no stall up to": the stalls recur, on too few writes to name a block.
std::string recurrence_evidence(const WriteStream& stream, const Recurrence& r) {
  return fmt::format("not determined: stalls recur every {} ({} writes of {}), but only {} of the {} writes on that "
                     "period are slow ({:.0f} %), where an erase block stalls on each: something else the drive or "
                     "host does (garbage collection, other load) hides the rest, and longer periods with more of them "
                     "slow are chance subsets of these: {} sequential writes of {}",
                     format_size(r.period * stream.chunk_bytes), r.period, format_size(stream.chunk_bytes), r.slow,
                     r.on, 100.0 * rate_of(r), stream.latency_us.size(), format_size(stream.chunk_bytes));
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
  std::optional<Recurrence> unreliable;
  if (const std::optional<StallPeriod> found = find_stall_period(slow, max_period, min_periods, unreliable)) {
    describe_erase_block(verdict, stream, slow, *found, center);
    return verdict;
  }
  if (unreliable) {
    verdict.evidence = recurrence_evidence(stream, *unreliable);
    verdict.recurs_every_bytes = unreliable->period * stream.chunk_bytes;
    verdict.recurring_share = rate_of(*unreliable);
    return verdict;
  }
  const SlowThreshold& t = slow.threshold;
  verdict.stall_floor_us = t.floor_us;
  verdict.spread_hides_stalls = t.spread && t.floor_us > kSmallestEraseStallUs;
  const std::string why = no_period_reason(slow.total);
  verdict.evidence = verdict.spread_hides_stalls ? hidden_evidence(stream, verdict.searched_up_to_bytes, t.floor_us, why)
                                                 : absent(stream, verdict.searched_up_to_bytes, why, t.floor_us);
  return verdict;
}

}  // namespace ssdprobe
