#include "run/cost_questions.h"

#include <algorithm>

#include "analysis/block_size_policy.h"
#include "analysis/misalignment_cost.h"
#include "core/error.h"
#include "layout/audit.h"
#include "layout/layout_reader.h"
#include "layout/layout_source.h"
#include "run/run_context.h"

namespace ssdprobe {
namespace {

// A filesystem's block: the request size and alignment the audit prices.
// A cost below this is not worth more of the budget to tell from none.
constexpr double kSmallestCostWorthKnowing = 1.02;

std::vector<uint64_t> layout_starts(const RunContext& run) {
  std::vector<uint64_t> starts;
  try {
    const OpenedLayoutSource opened = open_layout_source(run.target);
    AuditUnits units;
    units.logical_block = static_cast<uint32_t>(run.doc.topology.logical_block_size.value_or(512));
    units.physical_block = static_cast<uint32_t>(run.doc.topology.physical_block_size.value_or(units.logical_block));
    for (const AuditLine& line : audit_layout(read_disk_layout(opened.source), units).lines) {
      if (line.disk_offset) starts.push_back(*line.disk_offset);
    }
  } catch (const Error&) {
    // No layout to ask about; the audit phase reads it again and says why.
  }
  return starts;
}

bool still_open(const MisalignmentCost& cost) {
  return cost.determined && !cost.significant && cost.ratio_high >= kSmallestCostWorthKnowing;
}

}  // namespace

CostQuestion cost_question(const RunContext& run) {
  CostQuestion question;
  question.seed = run.options.seed;
  question.starts = layout_starts(run);
  for (uint64_t start : parse_starts(run.options.at)) question.starts.push_back(start);
  // Only the start within a block matters to the cost (misalignment_cost.h):
  // aligned starts cost exactly 1 and need no samples.
  std::erase_if(question.starts, [](uint64_t start) { return start % kDefaultFilesystemBlock == 0; });
  std::sort(question.starts.begin(), question.starts.end());
  question.starts.erase(std::unique(question.starts.begin(), question.starts.end()), question.starts.end());
  return question;
}

std::vector<uint64_t> open_cost_rows(const LatencyGrid& grid, const UnitVerdict& verdict, const CostQuestion& question) {
  std::vector<uint64_t> open;
  for (uint64_t size : misalignment_request_sizes(grid, kDefaultFilesystemBlock, verdict.leading)) {
    for (uint64_t start : question.starts) {
      MisalignmentCostQuery query;
      query.start_bytes = start;
      query.request_bytes = size;
      query.request_alignment = kDefaultFilesystemBlock;
      query.unit = verdict.leading;
      query.seed = question.seed;
      if (still_open(misalignment_cost(grid, query))) {
        open.push_back(size);
        break;
      }
    }
  }
  return open;
}

}  // namespace ssdprobe
