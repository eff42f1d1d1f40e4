#include "report/result_reader.h"

#include <fmt/format.h>

#include "core/error.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

std::optional<uint64_t> positive_unit(const SavedUnit& unit, const char* name, const std::string& path) {
  if (unit.bytes && *unit.bytes == 0) {
    throw Error(ErrorCategory::usage,
                fmt::format("--units-from {}: detected.{}.bytes is not a positive integer", path, name));
  }
  return unit.bytes;
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
  units.read_page = positive_unit(saved.read_page, "read_page", path);
  units.write_unit = positive_unit(saved.write_unit, "write_unit", path);
  units.erase_block = positive_unit(saved.erase_block, "erase_block", path);
  return units;
}

}  // namespace ssdprobe
