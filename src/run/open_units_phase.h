// The `open_units` phase of a --write run (probes/open_units_probe.h): after
// the erase stream, whose erase block places each stream in its own erase
// block, N interleaved sequential streams inside the window until the
// per-write cost collapses. Fills doc.open_units. The firmware's own
// statement (FDP reclaim unit handles, the Streams directive) is compared
// with it later, once the firmware phase has read it (open_units_mismatch).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "run/phase.h"

namespace ssdprobe {

// The stretch between two streams when the erase block was not found: the
// allocation unit of most SD cards and many eMMC erase groups. A collapse
// seen with it stands; no collapse proves nothing (streams may share blocks).
constexpr uint64_t kOpenUnitsStandInStretch = 4ull << 20;
// Each write when the write unit was not found.
constexpr uint64_t kOpenUnitsStandInWrite = 16384;

PhaseOutcome run_open_units_phase(RunContext& run);
// A window that cannot hold two streams' stretches.
std::optional<std::string> skip_open_units_if_no_room(const RunContext& run);
// What the firmware states about streams (FDP's reclaim unit handles in the
// configuration in use, else the Streams directive's streams), put beside
// the measured open units, and a mismatch when fewer were measured.
void compare_open_units_with_firmware(ResultDocument& doc);

}  // namespace ssdprobe
