#include "probes/grid_probe.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <fmt/format.h>
#include <unordered_set>

#include "analysis/round_drift.h"
#include "analysis/stats.h"
#include "analysis/write_stalls.h"
#include "core/random.h"
#include "runner/runner.h"

namespace ssdprobe {
namespace {

// Picks slots at random, never one of the recently used ones, so a read never
// lands where the drive's buffers may still hold data from a recent read.
class FreshSlots {
 public:
  FreshSlots(uint64_t slot_count, Random& random)
      : slot_count_(slot_count), memory_(std::min<uint64_t>(64, slot_count / 2)), random_(random) {}

  uint64_t next() {
    uint64_t slot = random_.below(slot_count_);
    while (recent_set_.count(slot)) slot = random_.below(slot_count_);
    recent_.push_back(slot);
    recent_set_.insert(slot);
    if (recent_.size() > memory_) {
      recent_set_.erase(recent_.front());
      recent_.pop_front();
    }
    return slot;
  }

 private:
  uint64_t slot_count_;
  uint64_t memory_;
  Random& random_;
  std::deque<uint64_t> recent_;
  std::unordered_set<uint64_t> recent_set_;
};

// How much each cell can tell the contenders apart: the summed deviation of
// its block counts from the row mean. Crossing cells score high.
std::vector<double> cell_interest(const LatencyGrid& grid, const std::vector<Feature>& contenders) {
  std::vector<double> interest(grid.cell_count(), 0.0);
  for (const Feature& feature : contenders) {
    for (size_t row = 0; row < grid.sizes.size(); ++row) {
      double mean = 0.0;
      for (size_t j = 0; j < grid.offsets.size(); ++j) mean += feature_value(feature, grid.offsets[j], grid.sizes[row]);
      mean /= static_cast<double>(grid.offsets.size());
      for (size_t j = 0; j < grid.offsets.size(); ++j) {
        const double count = feature_value(feature, grid.offsets[j], grid.sizes[row]);
        interest[grid.cell_index(row, j)] += std::fabs(count - mean);
      }
    }
  }
  return interest;
}

// Cells to sample this round: `uniform_per_cell` everywhere, then `targeted`
// more spread over the cells in proportion to their interest.
std::vector<size_t> round_cells(const LatencyGrid& grid, uint32_t uniform_per_cell, uint64_t targeted,
                                const std::vector<Feature>& contenders, Random& random) {
  std::vector<size_t> cells;
  for (uint32_t k = 0; k < uniform_per_cell; ++k) {
    for (size_t cell = 0; cell < grid.cell_count(); ++cell) cells.push_back(cell);
  }
  const std::vector<double> interest = cell_interest(grid, contenders);
  double total = 0.0;
  for (double v : interest) total += v;
  if (total > 0.0 && targeted > 0) {
    double carry = 0.0;  // systematic allocation: exact totals, no randomness needed
    for (size_t cell = 0; cell < grid.cell_count(); ++cell) {
      carry += static_cast<double>(targeted) * interest[cell] / total;
      while (carry >= 1.0) {
        cells.push_back(cell);
        carry -= 1.0;
      }
    }
  }
  for (size_t i = cells.size(); i > 1; --i) std::swap(cells[i - 1], cells[random.below(i)]);
  return cells;
}

std::vector<PlannedIo> ios_for(IoOp op, const GridPlan& plan, const LatencyGrid& grid,
                               const std::vector<size_t>& cells, FreshSlots& slots) {
  std::vector<PlannedIo> ios;
  ios.reserve(cells.size());
  for (size_t cell : cells) {
    const size_t row = cell / grid.offsets.size(), column = cell % grid.offsets.size();
    ios.push_back(PlannedIo{op, plan.location(slots.next(), column), static_cast<uint32_t>(grid.sizes[row])});
  }
  return ios;
}

// `cells`, `per_cell` times each, shuffled.
std::vector<size_t> repeated_cells(const std::vector<size_t>& cells, uint64_t per_cell, Random& random) {
  std::vector<size_t> round;
  round.reserve(cells.size() * per_cell);
  for (uint64_t k = 0; k < per_cell; ++k) round.insert(round.end(), cells.begin(), cells.end());
  for (size_t i = round.size(); i > 1; --i) std::swap(round[i - 1], round[random.below(i)]);
  return round;
}

// Every cell of the named rows, `per_cell` times each, shuffled.
std::vector<size_t> row_cells(const LatencyGrid& grid, const std::vector<uint64_t>& sizes, uint64_t per_cell,
                              Random& random) {
  std::vector<size_t> cells;
  for (size_t row = 0; row < grid.sizes.size(); ++row) {
    if (std::find(sizes.begin(), sizes.end(), grid.sizes[row]) == sizes.end()) continue;
    for (size_t column = 0; column < grid.offsets.size(); ++column) cells.push_back(grid.cell_index(row, column));
  }
  return repeated_cells(cells, per_cell, random);
}

// The cells of a first look, in the row of `size`. Columns whose reads
// touch the same number of blocks of every candidate unit are the same to
// the step model, so the look keeps two of each such class (the first and
// the last in the window, on different pages): every contrast of the row
// with a fraction of its cells. The full grid samples the rest.
std::vector<size_t> look_cells(const LatencyGrid& grid, uint64_t size, const std::vector<Feature>& candidates) {
  const auto row = static_cast<size_t>(std::find(grid.sizes.begin(), grid.sizes.end(), size) - grid.sizes.begin());
  std::map<std::vector<double>, std::vector<size_t>> classes;  // feature values -> columns
  for (size_t column = 0; column < grid.offsets.size(); ++column) {
    std::vector<double> values;
    for (const Feature& feature : candidates) values.push_back(feature_value(feature, grid.offsets[column], size));
    classes[values].push_back(column);
  }
  std::vector<size_t> cells;
  for (const auto& [values, columns] : classes) {
    cells.push_back(grid.cell_index(row, columns.front()));
    if (columns.size() > 1) cells.push_back(grid.cell_index(row, columns.back()));
  }
  std::sort(cells.begin(), cells.end());
  return cells;
}

struct RoundShape {
  uint32_t uniform_per_cell = 1;
  uint64_t targeted = 0;
};

// How a round spends `round_ios`. At queue depth 1 a round samples every cell
// once (the first round `initial_samples_per_cell` times) and spends the rest
// on the cells that decide between the contenders. At a deeper queue an IO's
// latency also depends on what else is in flight, so every round keeps the
// same mix of cells: a round weighted towards some cells would change the
// queueing each of them sees and fake a boundary. Balanced rounds cost
// adaptivity, not correctness.
RoundShape round_shape(bool first, uint64_t round_ios, size_t cell_count, const GridProbeOptions& options) {
  RoundShape shape;
  if (first) {
    shape.uniform_per_cell = options.initial_samples_per_cell;
  } else if (options.queue_depth > 1) {
    shape.uniform_per_cell = static_cast<uint32_t>(std::max<uint64_t>(1, round_ios / std::max<size_t>(1, cell_count)));
  }
  const uint64_t uniform_ios = static_cast<uint64_t>(shape.uniform_per_cell) * cell_count;
  if (options.queue_depth <= 1 && round_ios > uniform_ios) shape.targeted = round_ios - uniform_ios;
  return shape;
}

// Drops cells from the end of a shuffled round until its bytes fit in
// `bytes_left`: the cap is a promise about wear, so it holds exactly, not on
// average.
void trim_to_byte_cap(std::vector<size_t>& cells, const LatencyGrid& grid, uint64_t bytes_left) {
  uint64_t bytes = 0;
  size_t keep = 0;
  for (; keep < cells.size(); ++keep) {
    const uint64_t size = grid.sizes[cells[keep] / grid.offsets.size()];
    if (bytes + size > bytes_left) break;
    bytes += size;
  }
  cells.resize(keep);
}

// Grows each cell once, to exactly what this round adds, then adds the
// round's latencies: raw to `raw`, less the round's drift to `analysed`.
// push_back's doubling would leave up to half of two grid copies unused,
// which is most of the memory of a multi-million-IO grid.
void add_round_samples(LatencyGrid& raw, LatencyGrid& analysed, const std::vector<size_t>& cells,
                       const std::vector<double>& latencies, double shift) {
  std::vector<uint32_t> added(raw.cell_count(), 0);
  for (size_t cell : cells) ++added[cell];
  for (size_t cell = 0; cell < added.size(); ++cell) {
    if (added[cell] == 0) continue;
    raw.samples[cell].reserve(raw.samples[cell].size() + added[cell]);
    analysed.samples[cell].reserve(analysed.samples[cell].size() + added[cell]);
  }
  for (size_t i = 0; i < cells.size(); ++i) {
    raw.samples[cells[i]].push_back(latencies[i]);
    analysed.samples[cells[i]].push_back(latencies[i] - shift);
  }
}

// The rounds of one grid run, and what carries from one round to the next:
// the contenders the next round targets, its size, the drift baseline and
// the previous round's answer.
class GridRounds {
 public:
  GridRounds(const GridPlan& plan, const GridProbeOptions& options, ProbeRunner& runner, Random& random,
             FreshSlots& slots, GridProbeResult& result, uint64_t start_ns)
      : plan_(plan), options_(options), runner_(runner), random_(random), slots_(slots), result_(result),
        start_ns_(start_ns), analysis_(options.analysis), contenders_(analysis_.candidates),
        next_round_ios_(first_round_ios()),
        analysed_(plan.sizes, plan.offsets), looking_(first_look_row(plan, options)) {
    if (looking_) {
      result_.first_look.request_bytes = plan.first_look_size;
      look_cells_ = look_cells(result_.grid, plan.first_look_size, analysis_.candidates);
    }
  }

  // Samples and analyses one round. False when the probe stops here
  // (result.stop_reason says why).
  bool run(int round) {
    const std::vector<size_t> cells = plan_round();
    if (cells.empty()) {
      result_.stop_reason = GridStopReason::byte_cap;
      return false;
    }
    time_round(cells, round);
    analyse_round(round);
    if (!looking_) return settle_or_continue(round);
    look_again_or_go_on(round);
    return true;
  }

  // The verdict on every round's samples, with more resamples than between rounds.
  void final_verdict() {
    analysis_.bootstrap_replicates = 200;
    result_.verdict = infer_unit(inferred_grid(), analysis_);
    if (stalls_left_out_ > 0) {
      result_.verdict.evidence += fmt::format(
          " (analysed without the {} of {} writes that stalled beyond {:g}x their size's median, as on a full "
          "drive's garbage collection)", stalls_left_out_, analysed_.total_samples(), kStallRatio);
    }
    result_.corrected = std::move(analysed_);
  }

  double elapsed_s() const { return static_cast<double>(runner_.now_ns() - start_ns_) / 1e9; }

 private:
  // The IOs of the grid's first full round: initial_samples_per_cell in every cell.
  uint64_t first_round_ios() const {
    return static_cast<uint64_t>(options_.initial_samples_per_cell) * result_.grid.cell_count();
  }

  // A first look needs its row in the plan, and one mix of cells per round
  // at a deeper queue (round_shape says why).
  static bool first_look_row(const GridPlan& plan, const GridProbeOptions& options) {
    return plan.first_look_size > 0 && options.queue_depth <= 1 &&
           std::find(plan.sizes.begin(), plan.sizes.end(), plan.first_look_size) != plan.sizes.end();
  }

  // The round's cells, shuffled, trimmed to what the byte cap leaves.
  std::vector<size_t> plan_round() {
    const LatencyGrid& grid = result_.grid;
    std::vector<size_t> cells;
    if (looking_) {
      cells = repeated_cells(look_cells_, look_per_cell_, random_);
    } else if (!question_rows_.empty()) {
      cells = row_cells(grid, question_rows_, question_per_cell_, random_);
    } else {
      const RoundShape shape = round_shape(!full_round_done_, next_round_ios_, grid.cell_count(), options_);
      cells = round_cells(grid, shape.uniform_per_cell, shape.targeted, contenders_, random_);
      full_round_done_ = true;
    }
    if (options_.max_bytes > 0) {
      trim_to_byte_cap(cells, grid, options_.max_bytes - std::min(options_.max_bytes, runner_.bytes_issued()));
    }
    return cells;
  }

  void time_round(const std::vector<size_t>& cells, int round) {
    const bool first = round == 1;
    auto ios = ios_for(options_.op, plan_, result_.grid, cells, slots_);
    auto latencies = runner_.run(ios);
    const double shift = first ? 0.0 : round_shift_us(baseline_, cells, latencies);
    result_.ios += ios.size();
    std::vector<PlannedIo>().swap(ios);  // the plan is spent: free it before the grids grow
    add_round_samples(result_.grid, analysed_, cells, latencies, shift);
    std::vector<double>().swap(latencies);  // copied into the grids: free it before the analysis runs
    extend_baseline();
    result_.round_shifts_us.push_back(shift);
    result_.rounds = round;
  }

  // Each cell's drift baseline (analysis/round_drift.h) is its median in the
  // round that first sampled it: round 1's medians, and for cells first
  // sampled later (the full grid after a first look) their drift-corrected
  // median, so later rounds measure drift over them too.
  void extend_baseline() {
    baseline_.resize(analysed_.cell_count(), 0.0);
    for (size_t cell = 0; cell < baseline_.size(); ++cell) {
      if (baseline_[cell] <= 0.0 && !analysed_.samples[cell].empty()) baseline_[cell] = median(analysed_.samples[cell]);
    }
  }

  // What the verdict is drawn from: the drift-corrected grid, less its
  // stalls when a write grid met a heavy share of them
  // (analysis/write_stalls.h). Otherwise the grid itself, so a drive
  // without heavy stalls is analysed exactly as before.
  const LatencyGrid& inferred_grid() {
    stalls_left_out_ = 0;
    if (options_.op != IoOp::write) return analysed_;
    const WriteStalls stalls = classify_write_stalls(analysed_);
    if (!stalls.heavy()) return analysed_;
    stalls_left_out_ = stalls.stalled;
    without_stalls_ = without_stalls(analysed_);
    return without_stalls_;
  }

  // The verdict so far, whose contenders the next round targets.
  void analyse_round(int round) {
    analysis_.bootstrap_replicates = 100;
    result_.verdict = infer_unit(inferred_grid(), analysis_);
    contenders_ = result_.verdict.contenders.empty() ? analysis_.candidates : result_.verdict.contenders;
    result_.elapsed_s = elapsed_s();
    if (options_.progress) {
      options_.progress({options_.name, round, result_.ios, result_.elapsed_s, options_.budget_s, &result_.verdict});
    }
  }

  // After a look round: look again (doubling the row's samples), or hand
  // over to the full grid once a second look round confirmed a found unit,
  // the look sees no level, or it has spent what the full grid's first round
  // costs.
  void look_again_or_go_on(int round) {
    const UnitVerdict& verdict = result_.verdict;
    const bool confirmed = round >= std::max(2, options_.min_rounds) && verdict.leading == previous_leading_;
    previous_leading_ = verdict.leading;
    previous_counts_ = true;
    FirstLook& look = result_.first_look;
    look.ios = result_.ios;
    look.rounds = round;
    const bool found = verdict.state == UnitState::found && verdict.settled && confirmed;
    if (found) {
      look.unit = verdict.leading;
      look.support = verdict.leading_support;
    }
    // A look that sees no level at all hands over at once: ruling every unit
    // out takes every row, and the row alone would only delay the grid.
    if (found || !verdict.leading) looking_ = false;
    // Out of budget after a look, the grid still gets its first full round,
    // as a grid without a look always did: the heat map and the audit's
    // costs need every cell. It passes the budget by at most the look.
    if (!size_next_round()) looking_ = false;
    // The look spends at most what the grid's first round costs.
    const uint64_t look_left = first_round_ios() > result_.ios ? first_round_ios() - result_.ios : 0;
    const uint64_t next_look_ios = std::min({result_.ios, next_round_ios_, look_left});
    if (next_look_ios < look_cells_.size()) looking_ = false;
    if (looking_) {
      look_per_cell_ = next_look_ios / look_cells_.size();
    } else if (!found) {
      // Only a unit two look rounds agreed on may count as the round before
      // the grid's first: an answer the look did not confirm confirms nothing.
      previous_counts_ = false;
    }
  }

  // False when the verdict settles or the next round would not fit.
  bool settle_or_continue(int round) {
    // Settle only on a verdict that new data confirmed: the previous round
    // must have led to the same answer. With a few samples per cell a burst
    // of load, or a drive switching speed between rounds, can line up with
    // one feature, and the bootstrap, which resamples those same samples,
    // cannot see that; the next round can.
    const bool confirmed =
        round >= options_.min_rounds && previous_counts_ && result_.verdict.leading == previous_leading_;
    previous_leading_ = result_.verdict.leading;
    previous_counts_ = true;
    question_rows_.clear();
    if (result_.verdict.settled && confirmed) {
      result_.stop_reason = GridStopReason::settled;
      return ask_open_question();
    }
    return size_next_round();
  }

  // A settled grid samples on while another question still wants rows (and
  // the budget and caps allow one more such round); false when it stops.
  bool ask_open_question() {
    if (!options_.open_rows || result_.question_rounds >= options_.max_question_rounds) return false;
    std::vector<uint64_t> rows = options_.open_rows(analysed_, result_.verdict);
    if (rows.empty()) return false;
    if (options_.queue_depth > 1) rows = analysed_.sizes;  // one mix of cells per round (round_shape)
    const GridStopReason settled = result_.stop_reason;
    if (!size_next_round()) {
      result_.stop_reason = settled;  // the verdict settled; the question's round just did not fit
      return false;
    }
    const uint64_t row_cells_count = rows.size() * analysed_.offsets.size();
    const uint64_t held = row_samples(rows);
    question_per_cell_ = std::max<uint64_t>(1, held / row_cells_count);
    if (question_per_cell_ * row_cells_count > next_round_ios_) {
      question_per_cell_ = next_round_ios_ / row_cells_count;
      if (question_per_cell_ == 0) return false;
    }
    question_rows_ = std::move(rows);
    ++result_.question_rounds;
    return true;
  }

  uint64_t row_samples(const std::vector<uint64_t>& sizes) const {
    uint64_t total = 0;
    for (size_t row = 0; row < analysed_.sizes.size(); ++row) {
      if (std::find(sizes.begin(), sizes.end(), analysed_.sizes[row]) == sizes.end()) continue;
      for (size_t column = 0; column < analysed_.offsets.size(); ++column) {
        total += analysed_.cell(row, column).size();
      }
    }
    return total;
  }

  // Double the sample count each round, but stay inside the budget (and the
  // byte and IO caps). False when not even one sample per cell fits.
  bool size_next_round() {
    const double per_io_s = result_.elapsed_s / static_cast<double>(result_.ios + options_.warmup_ios);
    const double remaining_s = options_.budget_s - result_.elapsed_s;
    // Past the budget nothing is affordable (and a negative double cast to an
    // unsigned integer is undefined).
    const uint64_t affordable =
        per_io_s > 0 ? static_cast<uint64_t>(std::max(0.0, remaining_s) / per_io_s) : result_.ios;
    if (remaining_s <= 0 || affordable < result_.grid.cell_count()) {
      result_.stop_reason = GridStopReason::budget;
      return false;
    }
    // At least one sample per cell, even after a first round the byte cap cut.
    next_round_ios_ = std::min<uint64_t>(std::max(result_.grid.total_samples(), result_.grid.cell_count()), affordable);
    if (options_.max_bytes > 0) {
      const double bytes_per_io =
          static_cast<double>(runner_.bytes_issued()) / static_cast<double>(runner_.ios_issued());
      const double bytes_left = static_cast<double>(options_.max_bytes) - static_cast<double>(runner_.bytes_issued());
      next_round_ios_ =
          std::min<uint64_t>(next_round_ios_, bytes_left > 0 ? static_cast<uint64_t>(bytes_left / bytes_per_io) : 0);
      if (next_round_ios_ < result_.grid.cell_count()) {
        result_.stop_reason = GridStopReason::byte_cap;
        return false;
      }
    }
    const uint64_t ios_left = options_.max_ios > result_.ios ? options_.max_ios - result_.ios : 0;
    if (ios_left < result_.grid.cell_count()) {
      result_.stop_reason = GridStopReason::io_cap;
      return false;
    }
    next_round_ios_ = std::min(next_round_ios_, ios_left);
    return true;
  }

  const GridPlan& plan_;
  const GridProbeOptions& options_;
  ProbeRunner& runner_;
  Random& random_;
  FreshSlots& slots_;
  GridProbeResult& result_;
  uint64_t start_ns_;
  UnitInferenceOptions analysis_;
  std::vector<Feature> contenders_;
  uint64_t next_round_ios_;
  // What the analysis sees: the samples with each round's drift removed
  // (round_drift.h); result.grid keeps the raw latencies for the report.
  LatencyGrid analysed_;
  LatencyGrid without_stalls_;     // analysed_ less its stalls, when they were heavy
  uint64_t stalls_left_out_ = 0;   // of the last analysis: none unless heavy
  std::vector<double> baseline_;
  std::optional<uint64_t> previous_leading_;
  bool previous_counts_ = true;    // previous_leading_ may confirm this round's answer (false after an unconfirmed look)
  // The rows the next round samples for open_rows (empty: a normal round).
  std::vector<uint64_t> question_rows_;
  uint64_t question_per_cell_ = 1;
  bool looking_;                   // the first look is sampling its row alone
  std::vector<size_t> look_cells_; // the cells it samples (look_cells)
  uint64_t look_per_cell_ = options_.initial_samples_per_cell;
  bool full_round_done_ = false;   // the full grid's first round (initial_samples_per_cell a cell) is done
};

}  // namespace

GridProbeResult run_grid_probe(Device& device, const GridPlan& plan, const GridProbeOptions& options) {
  GridProbeResult result;
  result.plan = plan;
  result.grid = LatencyGrid(plan.sizes, plan.offsets);
  Random random(options.seed);
  FreshSlots slots(plan.slot_count, random);
  ProbeRunner runner(device, options.queue_depth, static_cast<uint32_t>(plan.sizes.back()));
  if (options.op == IoOp::write) runner.fill_buffers(options.seed);
  const uint64_t start_ns = runner.now_ns();

  // Warm-up: the first IOs pay for ring setup, page faults and idle power states.
  std::vector<size_t> warm(options.warmup_ios);
  for (auto& cell : warm) cell = random.below(result.grid.cell_count());
  if (options.max_bytes > 0) trim_to_byte_cap(warm, result.grid, options.max_bytes);  // the cap covers it too
  if (!warm.empty()) runner.run(ios_for(options.op, plan, result.grid, warm, slots));

  GridRounds rounds(plan, options, runner, random, slots, result, start_ns);
  result.stop_reason = GridStopReason::round_limit;
  // Look rounds do not count against max_rounds: they are a fraction of one.
  for (int round = 1; round <= options.max_rounds + result.first_look.rounds; ++round) {
    if (!rounds.run(round)) break;
  }
  rounds.final_verdict();
  result.elapsed_s = rounds.elapsed_s();
  result.bytes_issued = runner.bytes_issued();
  return result;
}

}  // namespace ssdprobe
