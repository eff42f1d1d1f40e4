// A drop in write speed that stays down: an SLC cache running out (or any
// other change of regime) in a series of equal writes' latencies, taken in
// the order they were written.
//
// The split is the single change point that best fits the log-latencies as
// two constant levels (least squares: on a log scale a drive that doubles
// its latency moves by the same amount whatever its speed). It counts as a
// drop only when the two sides are told apart by their samples, not just by
// their means: the later side's median is at least `min_ratio` slower, at
// least `min_separation` of all (earlier, later) sample pairs put the later
// one slower (a rank measure, so a few garbage-collection stalls on either
// side cannot make or unmake it), and the later side is long enough to say
// the drop stayed (min_after_samples, and min_after_fraction of the earlier
// side: a garbage-collection stretch of an eighth of the time must not pass
// for a cache). Host delays (a busy CPU, a preempted FUSE daemon, an
// interrupt storm) only ever lengthen a write, so the separation leaves out
// the earlier side's slowest `earlier_trim` (writes the host held up while
// the cache was still taking them cannot hide its end); the later side is
// kept whole, so a dip that recovered, whose fast writes come after the
// split, still fails. A ramp
// (a drive slowing steadily: throttling) fails the step test: each side
// drifts (its last quarter's median over its first's) by less than the
// square root of the step between them.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace ssdprobe {

struct DropRule {
  double min_ratio = 1.25;
  double min_separation = 0.95;
  double earlier_trim = 0.20;     // the earlier side's slowest fraction, left out of the separation
  size_t min_before_samples = 8;
  size_t min_after_samples = 32;
  double min_after_fraction = 0.20;
};

struct ThroughputDrop {
  size_t index = 0;              // the first sample of the slower regime
  double before_median_us = 0.0;
  double after_median_us = 0.0;
  double separation = 0.0;       // fraction of (earlier, later) pairs with the later one slower,
                                 // the earlier side's slowest `earlier_trim` left out
};

// The best single split of `latencies_us`, if it is a sustained drop.
std::optional<ThroughputDrop> find_sustained_drop(std::span<const double> latencies_us, const DropRule& rule = {});

// A looser rule, for honesty rather than for answers: a slowdown that passes
// it but not DropRule{} is a step the fill showed and could not confirm (a
// busy host, a short later side), so no "no cache up to N" may be claimed.
DropRule suggestive_drop_rule();

// Fraction of pairs (a in `earlier`, b in `later`) with b > a, ties counting
// one half: the probability that a later sample is the slower one.
double later_slower_fraction(std::span<const double> earlier, std::span<const double> later);

}  // namespace ssdprobe
