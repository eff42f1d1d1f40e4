#include "device/zoned.h"

#include <charconv>

#include "device/sysfs_text.h"

namespace ssdprobe {

namespace {

std::optional<uint64_t> read_u64(const std::filesystem::path& path) {
  const auto text = read_sysfs_string(path);
  if (!text || text->empty()) return std::nullopt;
  uint64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::optional<ZonedLimits> read_zoned_limits(const std::filesystem::path& queue) {
  auto model = read_sysfs_string(queue / "zoned");
  if (!model) return std::nullopt;
  ZonedLimits z;
  z.model = *model;
  if (const auto sectors = read_u64(queue / "chunk_sectors"); sectors && *sectors > 0) {
    z.chunk_bytes = *sectors * kKernelSectorBytes;
  }
  z.nr_zones = read_u64(queue / "nr_zones");
  z.max_open_zones = read_u64(queue / "max_open_zones");
  z.max_active_zones = read_u64(queue / "max_active_zones");
  z.zone_append_max_bytes = read_u64(queue / "zone_append_max_bytes");
  return z;
}

}  // namespace ssdprobe
