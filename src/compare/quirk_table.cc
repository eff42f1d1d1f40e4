#include "compare/quirk_table.h"

#include <bit>
#include <fmt/format.h>

#include "analysis/block_size_policy.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

std::optional<uint64_t> most_frequent(const SizeTally& tally) {
  return tally.top() ? tally.top()->bytes : std::nullopt;
}

std::string size_or_none(std::optional<uint64_t> bytes) {
  return bytes ? format_size(*bytes) : std::string("not reported");
}

// "measured 16 KiB read page", "the power of two that divides the measured
// 48 KiB write unit".
std::string unit_words(const BlockSizePolicy& policy) {
  const std::string unit = fmt::format("measured {} {}", format_size(*policy.unit), policy.unit_name);
  if (*policy.physical_block > *policy.unit) return unit + ", rounded up to 4 KiB";
  return *policy.physical_block == *policy.unit ? unit : "the power of two that divides the " + unit;
}

}  // namespace

std::vector<QuirkRow> quirk_table(const FleetComparison& comparison) {
  std::vector<QuirkRow> rows;
  for (const FleetGroup& g : comparison.groups) {
    QuirkRow row;
    row.model = g.model;
    row.firmware = g.firmware;
    row.size_bytes = g.size_bytes;
    row.drives = g.drives;
    row.runs = g.timed_runs;
    row.logical_block = most_frequent(g.logical_block);
    row.physical_block = most_frequent(g.physical_block);
    row.minimum_io = most_frequent(g.minimum_io);
    row.optimal_io = most_frequent(g.optimal_io);
    for (const auto& [name, tally] : g.firmware_geometry) {
      if (auto bytes = most_frequent(tally)) row.firmware_geometry.emplace_back(name, *bytes);
    }
    row.read_page = g.read_page.agreed(kQuirkMinRuns);
    row.write_unit = g.write_unit.agreed(kQuirkMinRuns);
    row.erase_block = g.erase_block.agreed(kQuirkMinRuns);

    // The erase block is no optimal IO size (analysis/block_size_policy.h):
    // a reported optimal_io_size is left alone.
    const BlockSizePolicy policy = block_size_policy(row.read_page, row.write_unit);
    row.ashift = policy.ashift;
    row.optimal_io_bytes = policy.optimal_io;
    if (policy.physical_block) {
      const uint64_t block = *policy.physical_block;
      row.physical_block_bytes = block;
      if (!row.physical_block || *row.physical_block < block) {
        row.reasons.push_back(fmt::format("physical_block_size {} < {} ({})", size_or_none(row.physical_block),
                                          format_size(block), unit_words(policy)));
      }
      if (!row.minimum_io || *row.minimum_io < block) {
        row.reasons.push_back(fmt::format("minimum_io_size {} < {} ({})", size_or_none(row.minimum_io),
                                          format_size(block), unit_words(policy)));
      }
    }
    if (!row.reasons.empty()) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ssdprobe
