#include "run/run_budget.h"

#include <algorithm>

namespace ssdprobe {

double RunBudget::write_phases_s(double read_elapsed_s) const { return std::max(grids_s() - read_elapsed_s, 0.0); }

// The stream needs two passes, and the grid may have run long: never less
// than a quarter of the write phases' budget.
double RunBudget::erase_stream_s(double write_phases_s, double grid_elapsed_s) const {
  return std::max(std::max(write_phases_s - grid_elapsed_s, write_phases_s / 4.0), 0.0);
}

double RunBudget::write_parallelism_s(double write_phases_s, double grid_elapsed_s, double stream_elapsed_s) const {
  const double left_s = write_phases_s - grid_elapsed_s - stream_elapsed_s;
  return std::max(left_s, total_s * kWriteParallelismBudgetShare);
}

double RunBudget::read_written_s(const RunTally& tally) const {
  return std::max(grids_s() - tally.device_time_s - tally.parallelism_time_s, total_s / 4.0);
}

double RunBudget::read_parallelism_s(const RunTally& tally) const {
  return std::max(total_s - tally.device_time_s - tally.parallelism_time_s, total_s * kParallelismBudgetShare);
}

}  // namespace ssdprobe
