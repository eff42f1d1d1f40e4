#include "analysis/open_units.h"

#include <algorithm>
#include <fmt/format.h>

#include "analysis/stats.h"
#include "analysis/throughput_drop.h"
#include "core/shell_command.h"

namespace ssdprobe {

StreamStepJudgement judge_stream_step(std::span<const double> baseline, const StreamStep& step,
                                      const OpenUnitsRule& rule) {
  StreamStepJudgement j;
  j.streams = step.streams;
  j.writes = step.latency_us.size();
  j.median_us = median(step.latency_us);
  const double base = median(baseline);
  j.ratio = base > 0.0 ? j.median_us / base : 1.0;
  std::vector<double> kept(baseline.begin(), baseline.end());
  std::sort(kept.begin(), kept.end());
  kept.resize(kept.size() - static_cast<size_t>(rule.baseline_trim * static_cast<double>(kept.size())));
  j.separation = later_slower_fraction(kept, step.latency_us);
  if (j.ratio >= rule.collapse_ratio && j.separation >= rule.min_separation) {
    j.judged = StreamStepClass::collapsed;
  } else if (j.ratio < rule.clean_ratio) {
    j.judged = StreamStepClass::clean;
  } else {
    j.judged = StreamStepClass::unclear;
  }
  return j;
}

namespace {

const char* class_word(StreamStepClass c) {
  switch (c) {
    case StreamStepClass::clean: return "as one";
    case StreamStepClass::unclear: return "unclear";
    case StreamStepClass::collapsed: return "collapsed";
  }
  return "?";
}

// "1: 0.21 ms, 2: 0.22 ms (1.0x), 3: 3.3 ms (15.7x, collapsed)": each N's
// median per write, against one stream's.
std::string steps_text(const std::vector<StreamStepJudgement>& steps) {
  std::string text;
  for (const auto& s : steps) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{}: {:.3g} ms", s.streams, s.median_us / 1000.0);
    if (s.streams > 1) text += fmt::format(" ({:.1f}x, {})", s.ratio, class_word(s.judged));
  }
  return text;
}

// The first collapsed step, if every smaller N was clean and every larger
// one collapsed too; otherwise why the steps disagree.
struct Split {
  std::optional<size_t> first_bad;
  std::string disagreement;
};

Split split_steps(const std::vector<StreamStepJudgement>& steps) {
  Split split;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].judged == StreamStepClass::collapsed) {
      split.first_bad = i;
      break;
    }
  }
  const size_t end = split.first_bad.value_or(steps.size());
  for (size_t i = 0; i < end; ++i) {
    if (steps[i].judged == StreamStepClass::unclear) {
      split.disagreement = fmt::format("{} streams wrote {:.1f}x slower than one: neither as fast as one stream nor "
                                       "collapsed", steps[i].streams, steps[i].ratio);
      return split;
    }
  }
  for (size_t i = end; i < steps.size(); ++i) {
    if (steps[i].judged != StreamStepClass::collapsed) {
      split.disagreement = fmt::format("{} streams collapsed but {} did not ({:.1f}x): the cost does not step once",
                                       steps[end].streams, steps[i].streams, steps[i].ratio);
      return split;
    }
  }
  return split;
}

}  // namespace

OpenUnitsVerdict infer_open_units(std::vector<StreamStep> steps, bool erase_block_known, const OpenUnitsRule& rule) {
  OpenUnitsVerdict v;
  v.state = UnitState::undetermined;
  std::sort(steps.begin(), steps.end(), [](const StreamStep& a, const StreamStep& b) { return a.streams < b.streams; });
  if (steps.empty() || steps.front().streams != 1 || steps.front().latency_us.size() < rule.min_samples) {
    v.evidence = "one stream's writes were not timed: nothing to compare with";
    return v;
  }
  const std::vector<double>& baseline = steps.front().latency_us;
  for (const auto& step : steps) {
    if (step.latency_us.size() < rule.min_samples) break;  // a step the budget cut short is left out
    v.steps.push_back(judge_stream_step(baseline, step, rule));
  }
  const std::string measured = "median per write by streams: " + steps_text(v.steps);
  const Split split = split_steps(v.steps);
  if (!split.disagreement.empty()) {
    v.evidence = fmt::format("{}; not determined: {}", measured, split.disagreement);
    return v;
  }
  if (split.first_bad) {
    const StreamStepJudgement& bad = v.steps[*split.first_bad];
    v.state = UnitState::found;
    v.streams = v.steps[*split.first_bad - 1].streams;
    v.at_most = bad.streams - 1;
    v.confidence = bad.separation;
    v.evidence = fmt::format("{}; {} streams at once cost {:.1f}x one stream's per write ({:.1f} % of pairs slower): "
                             "the drive keeps {} open", measured, bad.streams, bad.ratio, 100.0 * bad.separation,
                             *v.streams == *v.at_most ? fmt::format("{}", *v.streams)
                                                      : fmt::format("{} to {}", *v.streams, *v.at_most));
    return v;
  }
  const uint32_t largest = v.steps.back().streams;
  if (largest < 2) {
    v.evidence = measured + "; not determined: no second stream was timed";
    return v;
  }
  if (!erase_block_known) {
    v.evidence = fmt::format("{}; not determined: no collapse up to {} streams, but the erase block was not measured, "
                             "so streams placed by a stand-in spacing may have shared erase blocks", measured, largest);
    return v;
  }
  v.state = UnitState::absent;
  v.searched_up_to = largest;
  v.evidence = fmt::format("{}; no collapse up to {} streams, each in its own erase block", measured, largest);
  return v;
}

std::optional<uint32_t> f2fs_active_logs_for(uint32_t open) {
  for (uint32_t logs : {6u, 4u, 2u}) {
    if (logs <= open) return logs;
  }
  return std::nullopt;
}

std::vector<std::string> open_units_advice(const OpenUnitsVerdict& v, const std::string& partition) {
  if (v.state != UnitState::found || !v.streams) return {};
  const uint32_t open = *v.streams;
  std::vector<std::string> advice;
  advice.push_back(fmt::format("the drive keeps {} erase blocks open for writing: a workload should write at most {} "
                               "files (or logs, or database files) at once; one more makes every write a garbage "
                               "collection", open, open));
  const auto logs = f2fs_active_logs_for(open);
  if (!logs) {
    advice.push_back("f2fs writes at least 2 logs at once (active_logs=2, its fewest): more than this drive keeps "
                     "open");
    return advice;
  }
  const ShellCommand mount({"mount", "-t", "f2fs", "-o", fmt::format("active_logs={}", *logs), partition,
                            "MOUNTPOINT"});
  advice.push_back(fmt::format("f2fs: mount with active_logs={} (it takes 2, 4 or 6; the default is 6{}): {}", *logs,
                               *logs < 6 ? ", more than this drive keeps open" : "", render_command(mount)));
  return advice;
}

}  // namespace ssdprobe
