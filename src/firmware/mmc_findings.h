// What an SD/eMMC card's stated erase geometry says against what was
// measured: the allocation unit (the kernel's preferred_erase_size, from the
// card's status or its capacity) against the erase block a `--write` run
// found as a period of write stalls.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/verdicts.h"
#include "firmware/mmc_query.h"

namespace ssdprobe {

// One mismatch named "preferred_erase_size" when the erase block was
// measured and is neither the allocation unit nor a divisor of it; none
// otherwise (an erase block inside the unit is how cards are built).
std::vector<Mismatch> mmc_erase_findings(const MmcCardData& card, std::optional<uint64_t> measured_erase_block);

}  // namespace ssdprobe
