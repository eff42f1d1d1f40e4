#include "report/result_reader.h"

#include <fmt/format.h>
#include <string_view>

#include "core/block_math.h"
#include "core/error.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

// A read page or write unit is one of the shapes the grid probes test: a
// power of two, or three times one (12, 24, 48, 96 KiB), a whole number of
// 512 B sectors, no larger than 64 MiB. An erase block is a period of
// stalls in a write stream: any whole number of sectors from 4 KiB to
// 64 GiB. Anything else (1 B, 3 B, 2^64 - 1) did not come from a probe, and
// an audit built on it would tell the user to align to nonsense.
bool grid_unit_shape(uint64_t v) {
  return v >= 512 && v <= (64ull << 20) && v % 512 == 0 && (is_power_of_two(v) || (v % 3 == 0 && is_power_of_two(v / 3)));
}
bool erase_block_shape(uint64_t v) { return v >= 4096 && v <= (64ull << 30) && v % 512 == 0; }

std::optional<uint64_t> checked_unit(const SavedUnit& unit, const char* name, const std::string& path) {
  if (!unit.bytes) return std::nullopt;
  const bool erase = std::string_view(name) == "erase_block";
  if (erase ? erase_block_shape(*unit.bytes) : grid_unit_shape(*unit.bytes)) return unit.bytes;
  throw Error(ErrorCategory::usage,
              fmt::format("--units-from {}: detected.{}.bytes is {}, which no probe reports ({})", path, name,
                          *unit.bytes,
                          erase ? "an erase block is a multiple of 512 B from 4 KiB to 64 GiB"
                                : "a unit is a power of two, or 3 times one, in 512 B sectors, from 512 B to 64 MiB"));
}

}  // namespace

MeasuredUnits read_measured_units(const std::string& path) {
  SavedResult saved;
  try {
    saved = read_saved_result(path, GridDetail::none);
  } catch (const Error& e) {
    throw Error(ErrorCategory::usage, fmt::format("--units-from {}", e.what()));
  }
  MeasuredUnits units;
  units.path = saved.path;
  units.model = saved.model;
  units.serial = saved.serial;
  units.read_page = checked_unit(saved.read_page, "read_page", path);
  units.write_unit = checked_unit(saved.write_unit, "write_unit", path);
  units.erase_block = checked_unit(saved.erase_block, "erase_block", path);
  units.read_page_answer = saved.read_page;
  units.write_unit_answer = saved.write_unit;
  units.erase_block_answer = saved.erase_block;
  return units;
}

}  // namespace ssdprobe
