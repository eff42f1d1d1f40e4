#include "safety/zoned_refusal.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "safety/zone_choice.h"

namespace ssdprobe {

void refuse_zoned_writes(const Target& target) {
  const bool block = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  const auto& zoned = target.topology.zoned;
  if (!block || !zoned || !zoned->zoned() || zone_safe_writes_apply(target)) return;
  const std::string zone = zoned->zone_bytes() ? fmt::format(" with {} zones", format_exact_size(*zoned->zone_bytes())) : "";
  const std::string why =
      target.kind == TargetKind::partition
          ? "zone-safe write probes need the whole disk (they reset the zones they wrote, which a partition "
            "does not own); run --write on the disk itself"
          : "zone-safe write probes are only for host-managed devices (a host-aware one remaps random writes in "
            "its own way, so they would measure that), and the random-offset write probes and their restore "
            "would not measure the flash there";
  throw Error(ErrorCategory::refused,
              fmt::format("refusing to write to {}: it is {} of a {} zoned block device{} (sysfs queue/zoned); {}. "
                          "Run without --write: the read probes and `ssdprobe info` work on zoned devices",
                          target.path, target.kind == TargetKind::partition ? "a partition" : "the whole disk",
                          zoned->model, zone, why));
}

}  // namespace ssdprobe
