#include "compare/quirk_table.h"

#include <bit>
#include <fmt/format.h>

#include "analysis/io_size_policy.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

std::optional<uint64_t> most_frequent(const SizeTally& tally) {
  return tally.top() ? tally.top()->bytes : std::nullopt;
}

std::string size_or_none(std::optional<uint64_t> bytes) {
  return bytes ? format_size(*bytes) : std::string("not reported");
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

    const IoSizePolicy policy = io_size_policy(row.read_page, row.write_unit, row.erase_block);
    row.ashift = policy.ashift;
    if (policy.physical_block) {
      const uint64_t unit = *policy.physical_block;
      row.physical_block_bytes = unit;
      if (!row.physical_block || *row.physical_block < unit) {
        row.reasons.push_back(fmt::format("physical_block_size {} < measured {}", size_or_none(row.physical_block),
                                          format_size(unit)));
      }
      if (!row.minimum_io || *row.minimum_io < unit) {
        row.reasons.push_back(fmt::format("minimum_io_size {} < measured {}", size_or_none(row.minimum_io),
                                          format_size(unit)));
      }
    }
    if (row.erase_block) {
      row.optimal_io_bytes = policy.optimal_io;
      if (!row.optimal_io || *row.optimal_io == 0 || *row.optimal_io % *row.erase_block != 0) {
        row.reasons.push_back(fmt::format("optimal_io_size {} is not a multiple of the measured erase block {}",
                                          row.optimal_io && *row.optimal_io == 0 ? std::string("0")
                                                                                 : size_or_none(row.optimal_io),
                                          format_size(*row.erase_block)));
      }
    }
    if (!row.reasons.empty()) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ssdprobe
