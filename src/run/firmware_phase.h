// Folds what the firmware reports (src/firmware/firmware_query.h) into the
// result document: the reported.nvme/ata/scsi/smart sections, the identity
// when sysfs lacks it, firmware-vs-kernel mismatches and notes.
#pragma once

#include <optional>

#include "report/result.h"
#include "run/phase.h"
#include "run/run_context.h"

namespace ssdprobe {

// `measured_unit`: the write unit, else the read page, when one was measured.
void add_firmware_section(ResultDocument& doc, std::optional<uint64_t> measured_unit);

// As a phase: checked against the write unit, else the read page, when one
// was measured. Not for simulated drives (no firmware to ask).
PhaseOutcome query_firmware_phase(RunContext& run);
std::optional<std::string> skip_firmware_if_sim(const RunContext& run);

}  // namespace ssdprobe
