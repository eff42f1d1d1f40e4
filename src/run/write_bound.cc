#include "run/write_bound.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "probes/open_units_probe.h"
#include "run/parallelism_section.h"

namespace ssdprobe {

WriteBound write_bound(const Region& window, bool restored, uint64_t slc_fill_bytes, uint64_t slc_flat_bytes) {
  return {slc_fill_bytes, slc_flat_bytes, kWriteGridByteCap, 2 * window.length, kWriteParallelismByteCap,
          kOpenUnitsByteCap, restored ? window.length : 0};
}

std::optional<uint64_t> whole_drive_bytes(const Target& target) {
  // A disk is the drive itself only on a drive's own transport: a loop,
  // virtio, md or device-mapper device's size says nothing of the cache of
  // the SSD under it, nor does a plain SCSI disk's (SSDs attach by NVMe,
  // SATA, SAS, USB or MMC; what is left is virtio-scsi, VMware, Hyper-V
  // and iSCSI disks and array LUNs). A partition of a drive shares the
  // drive's cache: the disk's size is the drive's. (A file's topology names
  // no drive transport: its drive is not looked up.)
  static const std::set<std::string> drive_transports = {"nvme", "sata", "sas", "usb", "mmc"};
  if (target.kind == TargetKind::file) return std::nullopt;
  if (target.kind != TargetKind::sim && !drive_transports.contains(target.topology.transport)) return std::nullopt;
  const uint64_t bytes =
      target.kind == TargetKind::partition ? target.topology.disk_size_bytes : target.topology.size_bytes;
  if (bytes == 0) return std::nullopt;
  return bytes;
}

namespace {

// What a fill writes to confirm a cache of `cache` bytes: a drop needs a
// fifth more after it, and at least DropRule's 32 writes of 1 MiB.
uint64_t confirms(uint64_t cache) {
  constexpr uint64_t kLeastAfterDrop = 32ull << 20;
  return cache + std::max(cache / 5, kLeastAfterDrop);
}

}  // namespace

uint64_t slc_fill_cap(uint64_t cache_bytes, std::optional<uint64_t> drive_bytes) {
  if (!drive_bytes) return cache_bytes;
  return std::min(cache_bytes, confirms(*drive_bytes));
}

uint64_t slc_flat_stop(uint64_t cap_bytes, std::optional<uint64_t> drive_bytes) {
  if (!drive_bytes) return 0;
  const uint64_t flat = confirms(*drive_bytes / kFlatStopCapacityDivisor);
  return flat < cap_bytes ? flat : 0;
}

// A share at 0 is a phase that does not run (--cache-bytes 0, or left out
// by --max-write-bytes): it is not listed.
std::string WriteBound::breakdown() const {
  std::vector<std::string> parts;
  if (slc_cache > 0) {
    const std::string flat =
        slc_flat_stop > 0 ? fmt::format("; a fill at a flat speed stops at about {}", format_size(slc_flat_stop)) : "";
    parts.push_back(fmt::format("SLC cache probe and the write grid inside the cache <= {} (the window rewritten{})",
                                format_size(slc_cache), flat));
  }
  if (write_grid > 0) parts.push_back(fmt::format("write grid <= {}", format_size(write_grid)));
  if (erase_stream > 0)
    parts.push_back(fmt::format("erase stream <= {} (two passes over the window)", format_size(erase_stream)));
  if (write_parallelism > 0) parts.push_back(fmt::format("write parallelism <= {}", format_size(write_parallelism)));
  if (open_units > 0) parts.push_back(fmt::format("open-units probe <= {}", format_size(open_units)));
  if (restore > 0) parts.push_back(fmt::format("restore {}", format_size(restore)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace ssdprobe
