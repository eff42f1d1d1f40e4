#include "safety/zoned_refusal.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"

namespace ssdprobe {

void refuse_zoned_writes(const Target& target) {
  const bool block = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  const auto& zoned = target.topology.zoned;
  if (!block || !zoned || !zoned->zoned()) return;
  const std::string zone = zoned->zone_bytes() ? fmt::format(" with {} zones", format_exact_size(*zoned->zone_bytes())) : "";
  throw Error(ErrorCategory::refused,
              fmt::format("refusing to write to {}: it is a {} zoned block device{} (sysfs queue/zoned), which "
                          "accepts writes only sequentially at each zone's write pointer; zone-safe write probes "
                          "are not implemented, and the random-offset write probes and their restore would fail "
                          "there. Run without --write: the read probes and `ssdprobe info` work on zoned devices",
                          target.path, zoned->model, zone));
}

}  // namespace ssdprobe
