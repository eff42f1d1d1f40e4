#include "device/block_stat.h"

#include <sstream>

#include "device/sysfs_text.h"

namespace ssdprobe {

std::optional<IoCounts> parse_block_stat(const std::string& text) {
  // read I/Os, read merges, read sectors, read ticks, write I/Os, write merges, write sectors, ...
  std::istringstream in(text);
  uint64_t field[7] = {};
  for (uint64_t& value : field) {
    if (!(in >> value)) return std::nullopt;
  }
  constexpr uint64_t kSector = 512;
  return IoCounts{field[0], field[2] * kSector, field[4], field[6] * kSector};
}

std::optional<IoCounts> read_block_stat(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  const auto text = read_sysfs_string("/sys/class/block/" + name + "/stat");
  return text ? parse_block_stat(*text) : std::nullopt;
}

}  // namespace ssdprobe
