#include "device/zone_report.h"

#include <fcntl.h>
#include <linux/blkzoned.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <memory>

#include "core/error.h"
#include "core/unique_fd.h"
#include "device/sysfs_text.h"

namespace ssdprobe {

namespace {

constexpr uint32_t kZonesPerCall = 1024;

// The ioctl's buffer: the report header followed by room for kZonesPerCall
// zones, allocated with malloc because blk_zone_report ends in a flexible array.
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

Zone zone_from(const blk_zone& z, bool capacity_reported) {
  Zone zone;
  zone.start_bytes = z.start * kKernelSectorBytes;
  zone.length_bytes = z.len * kKernelSectorBytes;
  zone.write_pointer_bytes = z.wp * kKernelSectorBytes;
  zone.capacity_bytes = (capacity_reported ? z.capacity : z.len) * kKernelSectorBytes;
  zone.type = z.type;
  zone.cond = z.cond;
  zone.reset_recommended = z.reset != 0;
  return zone;
}

bool sequential(const Zone& z) { return z.type == BLK_ZONE_TYPE_SEQWRITE_REQ || z.type == BLK_ZONE_TYPE_SEQWRITE_PREF; }

void count_type(const Zone& z, ZoneSummary& s) {
  if (z.type == BLK_ZONE_TYPE_CONVENTIONAL) {
    ++s.conventional;
    s.conventional_bytes += z.length_bytes;
  } else if (z.type == BLK_ZONE_TYPE_SEQWRITE_REQ) {
    ++s.sequential_write_required;
  } else if (z.type == BLK_ZONE_TYPE_SEQWRITE_PREF) {
    ++s.sequential_write_preferred;
  }
}

void count_condition(const Zone& z, ZoneSummary& s) {
  switch (z.cond) {
    case BLK_ZONE_COND_NOT_WP: ++s.not_write_pointer; break;
    case BLK_ZONE_COND_EMPTY: ++s.empty; break;
    case BLK_ZONE_COND_IMP_OPEN: ++s.implicitly_open; break;
    case BLK_ZONE_COND_EXP_OPEN: ++s.explicitly_open; break;
    case BLK_ZONE_COND_CLOSED: ++s.closed; break;
    case BLK_ZONE_COND_READONLY: ++s.read_only; break;
    case BLK_ZONE_COND_FULL: ++s.full; break;
    case BLK_ZONE_COND_OFFLINE: ++s.offline; break;
    default: break;
  }
}

// Written bytes of a sequential zone: up to its write pointer, all of its
// capacity when full, nothing when empty or offline.
uint64_t written_in(const Zone& z) {
  if (z.cond == BLK_ZONE_COND_FULL) return z.capacity_bytes;
  if (z.cond == BLK_ZONE_COND_EMPTY || z.cond == BLK_ZONE_COND_OFFLINE) return 0;
  if (z.write_pointer_bytes <= z.start_bytes) return 0;
  return std::min(z.write_pointer_bytes - z.start_bytes, z.capacity_bytes);
}

void add_capacity(const Zone& z, ZoneSummary& s) {
  if (!s.zone_capacity_bytes) s.zone_capacity_bytes = z.capacity_bytes;
  s.zone_capacity_min_bytes = std::min(s.zone_capacity_min_bytes.value_or(z.capacity_bytes), z.capacity_bytes);
  s.zone_capacity_max_bytes = std::max(s.zone_capacity_max_bytes.value_or(0), z.capacity_bytes);
}

}  // namespace

std::vector<Zone> read_zone_report(int fd, const std::string& path) {
  const size_t bytes = sizeof(blk_zone_report) + kZonesPerCall * sizeof(blk_zone);
  std::unique_ptr<blk_zone_report, FreeDeleter> report(static_cast<blk_zone_report*>(std::calloc(1, bytes)));
  if (!report) throw Error(ErrorCategory::io, "out of memory for the zone report of " + path);
  std::vector<Zone> zones;
  uint64_t sector = 0;
  for (;;) {
    std::memset(report.get(), 0, bytes);
    report->sector = sector;
    report->nr_zones = kZonesPerCall;
    if (::ioctl(fd, BLKREPORTZONE, report.get()) != 0) {
      const int err = errno;
      const auto category = (err == ENOTTY || err == EOPNOTSUPP || err == EINVAL) ? ErrorCategory::unsupported
                                                                                   : ErrorCategory::io;
      throw Error(category, fmt::format("zone report (BLKREPORTZONE) of {}: {}", path, std::strerror(err)));
    }
    if (report->nr_zones == 0) break;
    const bool capacity_reported = (report->flags & BLK_ZONE_REP_CAPACITY) != 0;
    for (uint32_t i = 0; i < report->nr_zones; ++i) zones.push_back(zone_from(report->zones[i], capacity_reported));
    const blk_zone& last = report->zones[report->nr_zones - 1];
    if (last.len == 0) break;  // a malformed report must not loop forever
    sector = last.start + last.len;
  }
  return zones;
}

std::vector<Zone> read_zone_report(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) throw os_error("open " + path, errno);
  return read_zone_report(fd.get(), path);
}

ZoneSummary summarize_zones(std::span<const Zone> zones) {
  ZoneSummary s;
  s.zones = zones.size();
  if (!zones.empty()) s.zone_bytes = zones.front().length_bytes;
  for (const Zone& z : zones) {
    count_type(z, s);
    count_condition(z, s);
    if (z.reset_recommended) ++s.reset_recommended;
    if (!sequential(z)) continue;
    add_capacity(z, s);
    s.written_bytes += written_in(z);
  }
  return s;
}

}  // namespace ssdprobe
