#include "safety/zone_restore.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fmt/format.h>

#include "core/aligned_buffer.h"
#include "core/error.h"
#include "core/output.h"
#include "core/probe_data.h"
#include "device/zone_report.h"
#include "safety/zone_reset.h"

namespace ssdprobe {
namespace {

constexpr size_t kPiece = 1u << 20;

uint64_t written_in(const Zone& z) {
  return z.write_pointer_bytes > z.start_bytes ? std::min(z.write_pointer_bytes - z.start_bytes, z.capacity_bytes) : 0;
}

// Reads what lies below each zone's write pointer, sector by sector.
ZoneCensus survey_zones(int fd, const std::vector<Zone>& zones, const std::string& path) {
  ZoneCensus census;
  census.zones = zones.size();
  AlignedBuffer buffer(kPiece);
  for (const Zone& z : zones) {
    const uint64_t written = written_in(z);
    if (written > 0) ++census.written_zones;
    for (uint64_t done = 0; done < written; done += kPiece) {
      const size_t length = std::min<uint64_t>(kPiece, written - done);
      const uint64_t at = z.start_bytes + done;
      const ssize_t n = ::pread(fd, buffer.data(), length, static_cast<off_t>(at));
      if (n != static_cast<ssize_t>(length)) throw os_error(fmt::format("reading {} at {}", path, at), n < 0 ? errno : EIO);
      for (size_t s = 0; s < length; s += kProbeSectorBytes) {
        const std::span<const std::byte> sector(buffer.data() + s, std::min(kProbeSectorBytes, length - s));
        if (has_probe_tag(sector)) {
          census.test_bytes += sector.size();
        } else {
          if (census.foreign_bytes == 0) census.first_foreign_offset = at + s;
          census.foreign_bytes += sector.size();
        }
      }
    }
  }
  return census;
}

std::string describe_reset(const JournalContents& contents, const ZoneCensus& census, const std::string& path,
                           const std::string& journal) {
  const JournalIdentity& id = contents.identity;
  std::string text = fmt::format("ssdprobe will RESET {} zone{} of {} (journal {})\n", id.reset_zones.size(),
                                 id.reset_zones.size() == 1 ? "" : "s", printable(path), printable(journal));
  text += fmt::format("  model {}  serial {}, journaled at {}\n", id.model.empty() ? "-" : printable(id.model),
                      id.serial.empty() ? "-" : printable(id.serial), id.created_at);
  for (const ZoneRange& z : id.reset_zones) text += fmt::format("  zone at byte {} ({} bytes)\n", z.start, z.length);
  text += fmt::format("  they hold {} bytes of ssdprobe test data in {} written zone{}", census.test_bytes,
                      census.written_zones, census.written_zones == 1 ? "" : "s");
  if (census.foreign_bytes > 0) text += fmt::format(", and {} bytes written by someone else (--force)", census.foreign_bytes);
  return text + "; they were empty before the run\n";
}

}  // namespace

RestoreReport restore_zone_journal(const RestoreRequest& request, const JournalContents& contents, int device_fd,
                                   const std::string& path) {
  const std::string name = request.journal.string();
  const auto& ranges = contents.identity.reset_zones;
  const std::vector<Zone> zones = journaled_zones_in(read_zone_report(device_fd, path), ranges, path);
  const ZoneCensus census = survey_zones(device_fd, zones, path);
  RestoreReport report;
  if (census.written_zones == 0) {
    report.message = fmt::format("nothing to reset: the {} journaled zone{} of {} are already empty", zones.size(),
                                 zones.size() == 1 ? "" : "s", path);
    return report;
  }
  if (census.foreign_bytes > 0 && !request.force) {
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to reset the zones of {} listed in {}: {} bytes in them (the first at offset {}) "
                            "are not ssdprobe's test data, so the zones were written since the run; a reset would "
                            "destroy them. Give --force if that is what you want", path, name, census.foreign_bytes,
                            census.first_foreign_offset));
  }
  confirm_action(describe_reset(contents, census, path, name),
                 fmt::format("reset {} zone{} of {}", ranges.size(), ranges.size() == 1 ? "" : "s", printable(path)),
                 request.confirmation);
  reset_and_verify_zones(device_fd, ranges, path);
  report.records = ranges.size();
  report.bytes = census.test_bytes + census.foreign_bytes;
  report.message = fmt::format("reset {} zone{} of {} ({} bytes of test data) and verified each empty", ranges.size(),
                               ranges.size() == 1 ? "" : "s", path, report.bytes);
  return report;
}

}  // namespace ssdprobe
