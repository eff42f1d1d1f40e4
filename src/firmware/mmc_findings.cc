#include "firmware/mmc_findings.h"

#include <fmt/format.h>

namespace ssdprobe {

std::vector<Mismatch> mmc_erase_findings(const MmcCardData& card, std::optional<uint64_t> measured_erase_block) {
  const auto unit = card.preferred_erase_size;
  if (!unit || *unit == 0 || !measured_erase_block || *measured_erase_block == 0) return {};
  if (*unit % *measured_erase_block == 0) return {};
  Mismatch m;
  m.field = "preferred_erase_size";
  m.reported = static_cast<int64_t>(*unit);
  m.detected = static_cast<int64_t>(*measured_erase_block);
  m.severity = Severity::warning;
  m.message = fmt::format("the card's allocation unit (preferred_erase_size {} B) is not a multiple of the measured "
                          "erase block ({} B): the card's stated erase geometry does not describe how it stalls",
                          *unit, *measured_erase_block);
  return {m};
}

}  // namespace ssdprobe
