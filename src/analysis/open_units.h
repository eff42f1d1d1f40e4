// How many write streams a drive keeps open at once: the per-write cost of
// N interleaved sequential streams, each in its own erase block, against
// one stream's. Cheap flash keeps a few erase blocks open; one stream more
// than that makes every write a fold (a garbage collection), 10-100x the
// cost, where a drive without the limit writes N streams as fast as one.
//
// Each N's writes are judged against N = 1's (the baseline) by their
// medians and by their samples (the share of (baseline, N) pairs with N's
// write slower, the baseline's slowest fifth left out: a busy host only
// ever delays writes). A step is `collapsed` when its median is at least
// `collapse_ratio` times the baseline's and `min_separation` of the pairs
// agree; `clean` when its median stays under `clean_ratio` times it;
// anything between is `unclear`. The answer is the largest N before the
// first collapse, with the interval up to the N before the first collapsed
// one, when every smaller N was clean and every larger one tried collapsed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/verdicts.h"

namespace ssdprobe {

struct OpenUnitsRule {
  double collapse_ratio = 2.0;   // a fold costs milliseconds against a write's hundred microseconds
  double clean_ratio = 1.25;
  double min_separation = 0.95;
  double baseline_trim = 0.20;   // the baseline's slowest fraction, left out of the separation
  size_t min_samples = 16;       // per step, after its warm-up
};

enum class StreamStepClass { clean, unclear, collapsed };

// One N's timed writes, in the order they were issued.
struct StreamStep {
  uint32_t streams = 0;
  std::vector<double> latency_us;
};

struct StreamStepJudgement {
  uint32_t streams = 0;
  size_t writes = 0;
  double median_us = 0.0;
  double ratio = 1.0;        // median over the baseline's median
  double separation = 0.5;   // share of (baseline, this) pairs with this one slower
  StreamStepClass judged = StreamStepClass::clean;
};

// `baseline` is N = 1's writes.
StreamStepJudgement judge_stream_step(std::span<const double> baseline, const StreamStep& step,
                                      const OpenUnitsRule& rule = {});

struct OpenUnitsVerdict {
  UnitState state = UnitState::not_measured;
  std::optional<uint32_t> streams;      // found: the largest N whose writes did not collapse
  std::optional<uint32_t> at_most;      // found: the N before the first collapsed one (the interval's top)
  std::optional<uint32_t> searched_up_to;  // absent: the largest N tried, clean
  double confidence = 0.0;              // found: the first collapsed step's separation
  std::string evidence;
  std::vector<StreamStepJudgement> steps;  // in increasing N
};

// `steps` in any order, N = 1 among them. `erase_block_known`: the streams
// were placed in distinct erase blocks the run measured; without it (a
// stand-in spacing) no collapse is no evidence of no limit.
OpenUnitsVerdict infer_open_units(std::vector<StreamStep> steps, bool erase_block_known,
                                  const OpenUnitsRule& rule = {});

// The f2fs active logs that fit `open` streams (2, 4 or 6: all that mount
// -o active_logs= takes; mkfs.f2fs has no such option, its -a is heap
// allocation), or nullopt when even 2 do not fit.
std::optional<uint32_t> f2fs_active_logs_for(uint32_t open);

// What a found limit means for new layouts: how many files a logging
// workload should write at once, and the f2fs mount that keeps within it
// (`partition`: the node to name, or a placeholder). Empty unless found.
std::vector<std::string> open_units_advice(const OpenUnitsVerdict& verdict, const std::string& partition);

}  // namespace ssdprobe
