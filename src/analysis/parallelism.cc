#include "analysis/parallelism.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "analysis/stats.h"
#include "core/random.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

// The plateau is "stable" in a resample that lands within this share of it.
constexpr double kPlateauTolerance = 0.05;

double support_of(size_t agreeing, int replicates) {
  return (static_cast<double>(agreeing) + 0.5) / (static_cast<double>(replicates) + 1.0);
}

double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

std::vector<double> resampled(const std::vector<double>& values, Random& random) {
  std::vector<double> out(values.size());
  for (auto& v : out) v = values[random.below(values.size())];
  return out;
}

// The mean of a resample, its distance from the sample mean widened by
// sqrt(n / (n - 1)): a plain bootstrap of n values spreads its means by
// only (n - 1) / n of the mean's variance, which at the 3 segments a write
// sweep has (or a read depth cut short) would overstate the support.
double resampled_mean(const std::vector<double>& values, double mean, Random& random) {
  const double n = static_cast<double>(values.size());
  const double widen = n > 1.0 ? std::sqrt(n / (n - 1.0)) : 1.0;
  return mean + widen * (mean_of(resampled(values, random)) - mean);
}

// Both values without a number, for the same reason.
void without_value(ParallelismValue& a, ParallelismValue& b, UnitState state, const std::string& evidence) {
  a.state = b.state = state;
  a.evidence = b.evidence = evidence;
}

// ---------------------------------------------------------------- knee

struct KneePoint {
  size_t knee = 0;     // index into the depths
  size_t peak = 0;     // index of the plateau (highest mean)
  double plateau = 0.0;
};

KneePoint knee_of(const std::vector<double>& means) {
  KneePoint k;
  for (size_t i = 0; i < means.size(); ++i) {
    if (means[i] > k.plateau) {
      k.plateau = means[i];
      k.peak = i;
    }
  }
  for (size_t i = 0; i < means.size(); ++i) {
    if (means[i] >= kKneeShare * k.plateau) {
      k.knee = i;
      break;
    }
  }
  return k;
}

bool within_resolution(uint32_t a, uint32_t b) {
  return static_cast<double>(std::max(a, b)) <= kKneeResolution * static_cast<double>(std::min(a, b));
}

// Order statistic q of the resampled knees (an interpolated quantile would
// name depths that were never run).
double knee_quantile(std::vector<double> knees, double q) {
  std::sort(knees.begin(), knees.end());
  return knees[std::min(knees.size() - 1, static_cast<size_t>(q * static_cast<double>(knees.size())))];
}

// The depths the knee is judged on, and the curve the evidence shows.
struct KneeSweep {
  std::vector<DepthSummary> depths;  // those kept, ascending
  std::vector<double> means;         // their mean IOPS
  size_t fewest = SIZE_MAX;          // segments of the kept depth with the fewest
  std::string curve;                 // "mean IOPS per depth 1: ..., 2: ...", naming the depths left out
};

// "mean IOPS per depth 1: 9800, 2: 19500 ...", and which depths were left out.
std::string curve_text(const std::vector<DepthSummary>& depths, const std::string& left_out) {
  std::string text;
  for (const auto& d : depths) text += fmt::format("{}{}: {:.0f}", text.empty() ? "" : ", ", d.queue_depth, d.iops);
  text = "mean IOPS per depth " + text;
  if (!left_out.empty()) {
    text += fmt::format(" (depth {} left out: fewer than {} segments)", left_out, kMinDepthSegments);
  }
  return text;
}

// A refinement the budget cut short leaves some depths with fewer
// segments than the rest; they cannot be resampled and are left out
// rather than costing every depth its verdict.
KneeSweep resamplable_depths(const std::vector<DepthSummary>& all) {
  size_t most = 0;
  for (const auto& d : all) most = std::max(most, d.segment_iops.size());
  KneeSweep sweep;
  std::string left_out;
  for (const auto& d : all) {
    if (d.segment_iops.size() >= std::min(kMinDepthSegments, most)) sweep.depths.push_back(d);
    else left_out += fmt::format("{}{}", left_out.empty() ? "" : ", ", d.queue_depth);
  }
  for (const auto& d : sweep.depths) {
    sweep.fewest = std::min(sweep.fewest, d.segment_iops.size());
    sweep.means.push_back(d.iops);
  }
  sweep.curve = curve_text(sweep.depths, left_out);
  return sweep;
}

// What resamples of every depth's segments say of the point estimate.
struct KneeResamples {
  double knee_support = 0.0;     // from the resamples whose knee lies within kKneeResolution of it
  double plateau_support = 0.0;  // from those whose plateau lies within kPlateauTolerance of it
  std::vector<double> plateaus, knees;  // each resample's plateau IOPS and knee depth
};

KneeResamples resample_knee_support(const std::vector<DepthSummary>& depths, const KneePoint& point, uint64_t seed,
                                    int replicates) {
  const uint32_t knee_depth = depths[point.knee].queue_depth;
  Random random(seed ^ 0x6b6e6565ull);
  size_t knee_agree = 0, plateau_close = 0;
  KneeResamples out;
  for (int r = 0; r < replicates; ++r) {
    std::vector<double> m;
    for (const auto& d : depths) m.push_back(resampled_mean(d.segment_iops, d.iops, random));
    const KneePoint b = knee_of(m);
    if (b.knee + 1 < depths.size() && within_resolution(depths[b.knee].queue_depth, knee_depth)) ++knee_agree;
    if (std::fabs(b.plateau - point.plateau) <= kPlateauTolerance * point.plateau) ++plateau_close;
    out.plateaus.push_back(b.plateau);
    out.knees.push_back(depths[b.knee].queue_depth);
  }
  out.knee_support = support_of(knee_agree, replicates);
  out.plateau_support = support_of(plateau_close, replicates);
  return out;
}

// Still rising: the deepest depth is the peak and its last step still
// gained more than the plateau tolerance (the plateau, and with it the
// 90 % line, may lie deeper than the sweep). A knee at the deepest depth
// is one such case: the depth below it is under 90 % of the peak, a gain
// of over 11 %.
bool still_rising(const std::vector<DepthSummary>& depths, const KneePoint& point) {
  return point.peak + 1 == depths.size() &&
         depths.back().iops > (1.0 + kPlateauTolerance) * depths[depths.size() - 2].iops;
}

void mark_still_rising(ParallelismValue& knee, ParallelismValue& plateau, const KneeSweep& sweep,
                       const KneePoint& point) {
  const std::vector<DepthSummary>& depths = sweep.depths;
  const auto& last = depths.back();
  knee.state = plateau.state = UnitState::undetermined;
  knee.evidence = fmt::format("not determined: IOPS were still rising at the deepest queue tried ({}: {:.0f} IOPS, "
                              "{:.0f} at depth {}); the knee is at {} or beyond; {}",
                              last.queue_depth, last.iops, depths[depths.size() - 2].iops,
                              depths[depths.size() - 2].queue_depth, depths[point.knee].queue_depth, sweep.curve);
  plateau.evidence = fmt::format("not determined: no plateau below the deepest queue tried; at least {:.0f} IOPS "
                                 "(depth {})", point.plateau, depths[point.peak].queue_depth);
}

void judge_knee_depth(ParallelismValue& knee, const KneeSweep& sweep, const KneePoint& point,
                      const KneeResamples& resamples, int replicates) {
  const std::vector<DepthSummary>& depths = sweep.depths;
  const uint32_t knee_depth = depths[point.knee].queue_depth;
  const double knee_support = resamples.knee_support;
  knee.low = knee_quantile(resamples.knees, 0.025);
  knee.high = knee_quantile(resamples.knees, 0.975);
  knee.evidence = fmt::format("{}; the first depth reaching {:.0f} % of the plateau is {} ({:.0f} %); bootstrap "
                              "support {:.3f} (resamples whose knee lies within {:.1f}x of it; 95 % of them between "
                              "{:.0f} and {:.0f}) over {} resamples of {} segments per depth",
                              sweep.curve, 100.0 * kKneeShare, knee_depth,
                              100.0 * depths[point.knee].iops / point.plateau, knee_support, kKneeResolution,
                              *knee.low, *knee.high, replicates, sweep.fewest);
  if (point.knee > 0) {
    knee.evidence += fmt::format("; depth {} reached {:.0f} %", depths[point.knee - 1].queue_depth,
                                 100.0 * depths[point.knee - 1].iops / point.plateau);
  }
  if (knee_support >= kParallelismSupport) {
    knee.value = knee_depth;
    knee.state = UnitState::found;
    knee.confidence = knee_support;
  } else {
    knee.state = UnitState::undetermined;
    knee.evidence = fmt::format("not determined: best candidate depth {} with support {:.3f} (< {:.2f}); ", knee_depth,
                                knee_support, kParallelismSupport) + knee.evidence;
  }
}

void judge_plateau(ParallelismValue& plateau, const std::vector<DepthSummary>& depths, const KneePoint& point,
                   double plateau_support) {
  plateau.evidence = fmt::format("{:.0f} IOPS at depth {} (95 % interval {:.0f}-{:.0f}); {:.1f} % of resamples within "
                                 "{:.0f} % of it", point.plateau, depths[point.peak].queue_depth, *plateau.low,
                                 *plateau.high, 100.0 * plateau_support, 100.0 * kPlateauTolerance);
  if (plateau_support >= kParallelismSupport) {
    plateau.value = point.plateau;
    plateau.state = UnitState::found;
    plateau.confidence = plateau_support;
  } else {
    plateau.state = UnitState::undetermined;
    plateau.evidence = "not determined: " + plateau.evidence;
  }
}

void judge_knee(ParallelismVerdict& v, bool first_round_cut, uint64_t seed, int replicates) {
  ParallelismValue& knee = v.queue_depth_knee;
  ParallelismValue& plateau = v.plateau_iops;
  if (first_round_cut) {
    std::string timed;
    for (const auto& d : v.depths) timed += fmt::format("{}{}", timed.empty() ? "" : ", ", d.queue_depth);
    without_value(knee, plateau, UnitState::undetermined,
                  fmt::format("not determined: --budget ran out inside the first round of the sweep (depths timed: "
                              "{}); a larger --budget lets it run", timed.empty() ? "none" : timed));
    return;
  }
  if (v.depths.size() < 2) {
    without_value(knee, plateau, UnitState::not_measured,
                  "not measured: the IO engine keeps only one IO in flight (psync), so there is no queue depth to "
                  "sweep");
    return;
  }
  const KneeSweep sweep = resamplable_depths(v.depths);
  if (sweep.fewest < kMinDepthSegments) {
    without_value(knee, plateau, UnitState::undetermined,
                  fmt::format("not determined: the budget allowed only {} replicate segment(s) per depth, {} are "
                              "needed to resample; {}", sweep.fewest, kMinDepthSegments, sweep.curve));
    return;
  }
  const KneePoint point = knee_of(sweep.means);
  const KneeResamples resamples = resample_knee_support(sweep.depths, point, seed, replicates);
  plateau.low = quantile(resamples.plateaus, 0.025);
  plateau.high = quantile(resamples.plateaus, 0.975);
  if (still_rising(sweep.depths, point)) {
    mark_still_rising(knee, plateau, sweep, point);
    return;
  }
  judge_knee_depth(knee, sweep, point, resamples, replicates);
  judge_plateau(plateau, sweep.depths, point, resamples.plateau_support);
  if (knee.state == UnitState::found && plateau.state != UnitState::found) {
    // The knee is a share of the plateau: one whose level the resamples
    // cannot pin within 5 % does not settle it (a noisy drive, or a host
    // that was busy), however often the same depth came out.
    knee.evidence = fmt::format("not determined: depth {:.0f} with support {:.3f}, but the plateau it is a share "
                                "of is not determined; ", *knee.value, knee.confidence) + knee.evidence;
    knee.state = UnitState::undetermined;
    knee.value.reset();
    knee.confidence = 0.0;
  }
  if (v.levelled_off_at) {
    const std::string why = fmt::format("; the sweep stopped climbing at depth {}: in its first round the last {} "
                                        "doublings raised IOPS by less than {:.0f} % over the depths below",
                                        *v.levelled_off_at, kLevelDoublings, 100.0 * kLevelTolerance);
    knee.evidence += why;
    plateau.evidence += why;
  }
}

// ---------------------------------------------------------------- strides

struct StrideReading {
  bool structure = false;        // some strides serialize and others do not
  double single_us = 0.0;
  double lo = 0.0, hi = 0.0;     // smallest and largest excess of the power-of-two strides
  std::vector<double> excess, multiple_excess;
  std::vector<bool> serialized, multiple_serialized;
  std::optional<uint64_t> interleave;
  std::string interleave_why;    // when not found
  std::optional<uint32_t> units;
  std::string units_why;
};

// Pair time over a lone read at quantile q of each.
double excess_of(const std::vector<double>& pairs, double single, double q) {
  return single > 0.0 && !pairs.empty() ? quantile(pairs, q) / single - 1.0 : 0.0;
}

// Sets the two levels and, when they are far enough apart for some strides
// to serialize, which strides did. False when nothing serializes.
bool classify_strides(StrideReading& r, IoOp op) {
  // The two levels come from the power-of-two strides alone, and the
  // multiples are read against the same threshold. The multiples are timed
  // later, in a phase of their own, and there are up to 64 of them: on a real
  // drive their level drifted from the strides' (on the FUSE emulated drive
  // serialized multiples took +105 % where serialized strides took +82 %),
  // and one of them slowed by host load could lift the maximum, and with it
  // the threshold, above every serialized stride ("the smallest stride
  // already overlapped" with the 4 units x 64 KiB plain in the table).
  r.lo = *std::min_element(r.excess.begin(), r.excess.end());
  r.hi = *std::max_element(r.excess.begin(), r.excess.end());
  r.structure = r.hi - r.lo >= kMinSerializationShare;
  if (!r.structure) {
    const char* io = io_noun(op);
    r.interleave_why = r.units_why = fmt::format(
        "no stride made concurrent {}s wait for each other: pairs took {:+.0f} % to {:+.0f} % over a lone {} "
        "({:.1f} us) at every stride, a spread below {:.0f} %: nothing serializes on one unit (no per-unit queueing, "
        "or a dynamic mapping that strides cannot see)",
        io, 100.0 * r.lo, 100.0 * r.hi, io, r.single_us, 100.0 * kMinSerializationShare);
    return false;
  }
  const double threshold = (r.lo + r.hi) / 2.0;
  for (double x : r.excess) r.serialized.push_back(x > threshold);
  for (double x : r.multiple_excess) r.multiple_serialized.push_back(x > threshold);
  return true;
}

// Sets the interleave: the smallest stride that overlapped, when the larger
// ones agree. Its index among the strides, or nothing (the reason in `r`).
std::optional<size_t> find_interleave(StrideReading& r, const std::vector<StrideSample>& strides,
                                      std::optional<uint64_t> smallest_known) {
  size_t first_parallel = strides.size();
  for (size_t i = 0; i < strides.size(); ++i) {
    if (!r.serialized[i]) {
      first_parallel = i;
      break;
    }
  }
  if (first_parallel == strides.size()) {
    r.interleave_why = r.units_why =
        fmt::format("every stride up to {} serialized", format_size(strides.back().stride_bytes));
    return std::nullopt;
  }
  if (first_parallel == 0 && !(smallest_known && strides[0].stride_bytes >= *smallest_known)) {
    r.interleave_why = r.units_why =
        fmt::format("the smallest stride tried ({}) already overlapped: the interleave is at most that",
                    format_size(strides[0].stride_bytes));
    return std::nullopt;
  }
  // Past the interleave, powers of two overlap until they reach units x
  // interleave, and every larger one is a multiple of that: serialized.
  bool wrapped = false;
  for (size_t i = first_parallel; i < strides.size(); ++i) {
    if (r.serialized[i]) wrapped = true;
    else if (wrapped) {
      r.interleave_why = r.units_why = fmt::format(
          "inconsistent pattern: stride {} overlapped after a smaller one past the interleave serialized",
          format_size(strides[i].stride_bytes));
      return std::nullopt;
    }
  }
  r.interleave = strides[first_parallel].stride_bytes;
  return first_parallel;
}

// A stride lands on the same unit exactly when it is a multiple of
// units x interleave: every measured stride must agree. The first that
// does not, said as the reason the unit count is not found.
std::optional<std::string> units_disagreement(const StrideReading& r, const std::vector<StrideSample>& strides,
                                              const std::vector<StrideSample>& multiples, size_t first_parallel) {
  const uint64_t interleave = *r.interleave;
  auto agrees = [&](uint64_t stride, bool serialized) {
    return stride < interleave || (stride % (static_cast<uint64_t>(*r.units) * interleave) == 0) == serialized;
  };
  for (size_t i = 0; i < multiples.size(); ++i) {
    if (!agrees(multiples[i].stride_bytes, r.multiple_serialized[i])) {
      return fmt::format("inconsistent pattern: {} units would {} stride {}", *r.units,
                         r.multiple_serialized[i] ? "not serialize" : "serialize",
                         format_size(multiples[i].stride_bytes));
    }
  }
  for (size_t i = first_parallel; i < strides.size(); ++i) {
    if (strides[i].stride_bytes % interleave == 0 && !agrees(strides[i].stride_bytes, r.serialized[i])) {
      return fmt::format("inconsistent pattern: {} units would {} stride {}", *r.units,
                         r.serialized[i] ? "not serialize" : "serialize", format_size(strides[i].stride_bytes));
    }
  }
  return std::nullopt;
}

// Sets the unit count: the first multiple of the interleave that serialized
// again (it wraps round to the same unit), when every stride agrees.
void count_units(StrideReading& r, const std::vector<StrideSample>& strides, const std::vector<StrideSample>& multiples,
                 size_t first_parallel) {
  const uint64_t interleave = *r.interleave;
  for (size_t i = 0; i < multiples.size(); ++i) {
    if (r.multiple_serialized[i]) {
      r.units = static_cast<uint32_t>(multiples[i].stride_bytes / interleave);
      break;
    }
  }
  if (!r.units) {
    r.units_why = fmt::format("no multiple of the interleave up to {} x serialized: more units than that",
                              multiples.back().stride_bytes / interleave);
    return;
  }
  if (const std::optional<std::string> why = units_disagreement(r, strides, multiples, first_parallel)) {
    r.units_why = *why;
    r.units.reset();
  }
}

// Reads the strides as serialized or overlapping, then the interleave and
// the unit count from the pattern. `multiples_of` is the interleave the
// multiples were planned for (the multiples are read only when this reading
// finds the same one).
StrideReading read_strides(const std::vector<double>& single, const std::vector<StrideSample>& strides,
                           const std::vector<StrideSample>& multiples, std::optional<uint64_t> smallest_known,
                           std::optional<uint64_t> multiples_of, IoOp op) {
  StrideReading r;
  r.single_us = single.empty() ? 0.0 : quantile(single, kPairQuantile);
  for (const auto& s : strides) r.excess.push_back(excess_of(s.pair_us, r.single_us, kPairQuantile));
  for (const auto& s : multiples) r.multiple_excess.push_back(excess_of(s.pair_us, r.single_us, kPairQuantile));
  if (r.excess.empty() || r.single_us <= 0.0) {
    r.interleave_why = r.units_why = "no stride was measured";
    return r;
  }
  if (!classify_strides(r, op)) return r;
  const std::optional<size_t> first_parallel = find_interleave(r, strides, smallest_known);
  if (!first_parallel) return r;
  if (!multiples_of || *multiples_of != *r.interleave || multiples.empty()) {
    r.units_why = "the multiples of the interleave were not measured";
    return r;
  }
  count_units(r, strides, multiples, *first_parallel);
  return r;
}

std::string stride_table(const StrideReading& r, const std::vector<StrideSample>& strides) {
  std::string text;
  for (size_t i = 0; i < strides.size(); ++i) {
    text += fmt::format("{}{} {:+.0f} %{}", text.empty() ? "" : ", ", format_size(strides[i].stride_bytes),
                        100.0 * r.excess[i], r.structure && r.serialized[i] ? " (serial)" : "");
  }
  return text;
}

// The verdict's stride tables: every stride's and multiple's pair times, and
// how the point reading judged them.
void summarize_strides(ParallelismVerdict& v, const ParallelismData& data, const StrideReading& point) {
  v.single_p25_us = point.single_us;
  v.single_p50_us = data.single_us.empty() ? 0.0 : median(data.single_us);
  auto summary = [&](const StrideSample& s, double excess_p25, bool serialized) {
    return StrideSummary{s.stride_bytes, s.pair_us.size(), median(s.pair_us),
                         excess_of(s.pair_us, v.single_p50_us, 0.5), quantile(s.pair_us, kPairQuantile), excess_p25,
                         serialized};
  };
  for (size_t i = 0; i < data.strides.size(); ++i) {
    v.strides.push_back(summary(data.strides[i], point.excess[i], point.structure && point.serialized[i]));
  }
  for (size_t i = 0; i < data.multiples.size(); ++i) {
    v.multiples.push_back(summary(data.multiples[i], point.multiple_excess[i],
                                  point.structure && point.multiple_serialized[i]));
  }
}

// Bootstrap support of the point reading: the share of resamples (of the
// lone IOs and of every stride's pairs) that find its interleave, and that
// find its unit count as well.
struct StrideSupport {
  double interleave = 0.0;
  double units = 0.0;
};

StrideSupport resample_stride_support(const ParallelismData& data, const StrideReading& point,
                                      std::optional<uint64_t> planned, uint64_t seed, int replicates) {
  Random random(seed ^ 0x73747269ull);
  size_t same_interleave = 0, same_units = 0;
  std::vector<StrideSample> strides = data.strides, multiples = data.multiples;
  for (int b = 0; b < replicates; ++b) {
    const std::vector<double> single = resampled(data.single_us, random);
    for (size_t i = 0; i < strides.size(); ++i) strides[i].pair_us = resampled(data.strides[i].pair_us, random);
    for (size_t i = 0; i < multiples.size(); ++i) multiples[i].pair_us = resampled(data.multiples[i].pair_us, random);
    const StrideReading r = read_strides(single, strides, multiples, data.smallest_known_interleave, planned, data.op);
    if (r.interleave == point.interleave) {
      ++same_interleave;
      if (point.units && r.units == point.units) ++same_units;
    }
  }
  return {support_of(same_interleave, replicates), support_of(same_units, replicates)};
}

void judge_interleave(ParallelismValue& interleave, const ParallelismData& data, const StrideReading& point,
                      double interleave_support, const std::string& table) {
  const uint64_t pairs = data.strides.front().pair_us.size();
  const std::string base =
      fmt::format("{}; {} pairs per stride, threshold half way between {:+.0f} % and {:+.0f} %", table, pairs,
                  100.0 * point.lo, 100.0 * point.hi);
  const bool page_bound = point.interleave == data.strides.front().stride_bytes;
  interleave.evidence = fmt::format("smallest overlapping stride {}{}; bootstrap support {:.3f}; {}",
                                    format_size(*point.interleave),
                                    page_bound ? " (the read page: smaller strides share a page)" : "",
                                    interleave_support, base);
  if (interleave_support >= kParallelismSupport) {
    interleave.value = static_cast<double>(*point.interleave);
    interleave.state = UnitState::found;
    interleave.confidence = interleave_support;
  } else {
    interleave.state = UnitState::undetermined;
    interleave.evidence = fmt::format("not determined: support {:.3f} < {:.2f}; ", interleave_support,
                                      kParallelismSupport) + interleave.evidence;
  }
}

// The unit count, found only beside a found interleave.
void judge_units(ParallelismVerdict& v, const ParallelismData& data, const StrideReading& point,
                 double units_support) {
  ParallelismValue& units = v.parallel_units;
  if (!point.units) {
    units.state = UnitState::undetermined;
    units.evidence = "not determined: " + point.units_why;
    return;
  }
  std::string multiples_text;
  for (const auto& m : v.multiples) {
    if (m.serialized) {
      multiples_text += fmt::format("{}{}x", multiples_text.empty() ? "" : ", ", m.stride_bytes / *point.interleave);
    }
  }
  units.evidence = fmt::format("strides of {} x the interleave ({}) serialize again (wrap round to the same unit; "
                               "serialized multiples: {}, of {} tried); bootstrap support {:.3f}",
                               *point.units, format_size(*point.units * *point.interleave), multiples_text,
                               data.multiples.size(), units_support);
  if (units_support >= kParallelismSupport && v.interleave_bytes.state == UnitState::found) {
    units.value = *point.units;
    units.state = UnitState::found;
    units.confidence = units_support;
  } else {
    units.state = UnitState::undetermined;
    units.evidence = fmt::format("not determined: support {:.3f} < {:.2f}; ", units_support, kParallelismSupport) +
                     units.evidence;
  }
}

void judge_strides(ParallelismVerdict& v, const ParallelismData& data, uint64_t seed, int replicates) {
  ParallelismValue& units = v.parallel_units;
  ParallelismValue& interleave = v.interleave_bytes;
  if (data.first_round_cut) {
    without_value(units, interleave, UnitState::undetermined,
                  "not determined: --budget ran out inside the first round, before its stride pairs; a larger "
                  "--budget lets them run");
    return;
  }
  if (data.strides.empty()) {
    without_value(units, interleave, UnitState::not_measured,
                  "not measured: the stride probe needs two IOs in flight (psync keeps one) or the region is too "
                  "small");
    return;
  }
  // The multiples were planned for the interleave the point estimate found.
  const std::optional<uint64_t> planned =
      data.multiples.empty() ? std::nullopt
                             : point_interleave(data.single_us, data.strides, data.smallest_known_interleave);
  const StrideReading point =
      read_strides(data.single_us, data.strides, data.multiples, data.smallest_known_interleave, planned, data.op);
  summarize_strides(v, data, point);
  const std::string table = fmt::format("pair time over a lone {} at the {:.0f}th percentiles ({:.1f} us) by "
                                        "stride: {}", io_noun(data.op), 100.0 * kPairQuantile, point.single_us,
                                        stride_table(point, data.strides));
  if (!point.interleave) {
    interleave.state = units.state = UnitState::undetermined;
    interleave.evidence = "not determined: " + point.interleave_why + "; " + table;
    units.evidence = "not determined: " + point.units_why;
    return;
  }
  const StrideSupport support = resample_stride_support(data, point, planned, seed, replicates);
  judge_interleave(interleave, data, point, support.interleave, table);
  judge_units(v, data, point, support.units);
}

}  // namespace

std::vector<DepthSummary> summarize_depths(const std::vector<DepthSegment>& segments) {
  std::map<uint32_t, DepthSummary> by_depth;
  std::map<uint32_t, std::vector<double>> latencies, busy, waited;
  for (const auto& s : segments) {
    if (s.host_busy) busy[s.queue_depth].push_back(*s.host_busy);
    if (s.host_waited) waited[s.queue_depth].push_back(*s.host_waited);
    DepthSummary& d = by_depth[s.queue_depth];
    d.queue_depth = s.queue_depth;
    d.segment_iops.push_back(s.iops);
    d.ios += s.latency_us.size();
    auto& l = latencies[s.queue_depth];
    l.insert(l.end(), s.latency_us.begin(), s.latency_us.end());
  }
  std::vector<DepthSummary> out;
  for (auto& [depth, d] : by_depth) {
    d.iops = mean_of(d.segment_iops);
    d.p50_us = quantile(latencies[depth], 0.5);
    d.p99_us = quantile(latencies[depth], 0.99);
    if (!busy[depth].empty()) d.host_busy = quantile(busy[depth], 0.5);
    if (!waited[depth].empty()) d.host_waited = quantile(waited[depth], 0.5);
    out.push_back(d);
  }
  return out;
}

std::optional<uint32_t> point_knee(const std::vector<DepthSegment>& segments) {
  const std::vector<DepthSummary> depths = summarize_depths(segments);
  if (depths.size() < 2) return std::nullopt;
  std::vector<double> means;
  for (const auto& d : depths) means.push_back(d.iops);
  const KneePoint k = knee_of(means);
  if (k.knee + 1 >= depths.size()) return std::nullopt;
  return depths[k.knee].queue_depth;
}

std::optional<uint64_t> point_interleave(const std::vector<double>& single_us, const std::vector<StrideSample>& strides,
                                         std::optional<uint64_t> smallest_known_interleave) {
  return read_strides(single_us, strides, {}, smallest_known_interleave, std::nullopt, IoOp::read).interleave;
}

bool knee_settled(const std::vector<DepthSegment>& segments, uint64_t seed) {
  ParallelismVerdict v;
  v.depths = summarize_depths(segments);
  judge_knee(v, false, seed, kSettleReplicates);
  const auto settled = [](const ParallelismValue& value) {
    return value.state == UnitState::found && value.confidence >= kSettledSupport;
  };
  return settled(v.queue_depth_knee) && settled(v.plateau_iops);
}

ParallelismVerdict analyse_parallelism(const ParallelismData& data, uint64_t seed, int replicates) {
  ParallelismVerdict v;
  v.op = data.op;
  v.depths = summarize_depths(data.segments);
  v.levelled_off_at = data.levelled_off_at;
  judge_knee(v, data.first_round_cut, seed, replicates);
  judge_strides(v, data, seed, replicates);
  return v;
}

std::vector<std::string> parallelism_advice(const ParallelismVerdict& v) {
  std::vector<std::string> advice;
  // Reads say "IO" (they are what most workloads wait for); the write
  // sweep's advice names writes.
  const bool writes = v.op == IoOp::write;
  const char* ios = writes ? "writes" : "IOs";
  const char* io = writes ? "writes" : "IO";
  if (v.queue_depth_knee.state == UnitState::found && v.plateau_iops.state == UnitState::found) {
    advice.push_back(fmt::format("keep at least {:.0f} {} outstanding (queue depth knee: {:.0f} % of the {:.0f} IOPS "
                                 "plateau of small random {}s); deeper queues add latency, not throughput",
                                 *v.queue_depth_knee.value, ios, 100.0 * kKneeShare, *v.plateau_iops.value,
                                 io_noun(v.op)));
  }
  if (v.interleave_bytes.state == UnitState::found && v.parallel_units.state == UnitState::found) {
    const uint64_t chunk = static_cast<uint64_t>(*v.interleave_bytes.value);
    const uint64_t units = static_cast<uint64_t>(*v.parallel_units.value);
    advice.push_back(fmt::format("stripe concurrent {} at {} (the interleave): {} consecutive {} chunks ({}) reach "
                                 "all {} parallel units, while {} {} apart queue on one unit",
                                 io, format_size(chunk), units, format_size(chunk), format_size(chunk * units), units,
                                 ios, format_size(chunk * units)));
  } else if (v.interleave_bytes.state == UnitState::found) {
    advice.push_back(fmt::format("stripe concurrent {} at {} (the interleave): {} closer than that queue on one unit",
                                 io, format_size(static_cast<uint64_t>(*v.interleave_bytes.value)), ios));
  }
  return advice;
}

const char* io_noun(IoOp op) { return op == IoOp::write ? "write" : "read"; }

ParallelismVerdict parallelism_not_measured(const std::string& why, IoOp op) {
  ParallelismVerdict v;
  v.op = op;
  for (ParallelismValue* value : {&v.queue_depth_knee, &v.plateau_iops, &v.parallel_units, &v.interleave_bytes}) {
    value->state = UnitState::not_measured;
    value->evidence = "not measured: " + why;
  }
  return v;
}

}  // namespace ssdprobe
