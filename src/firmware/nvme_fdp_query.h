// Reads the FDP state of the endurance group a namespace belongs to, through
// an NvmeAdmin: the FDP feature (enabled, configuration index), the FDP
// Configurations, Reclaim Unit Handle Usage and Statistics logs and both
// FDP Events logs (host and controller events). Only for a controller whose
// Identify Controller CTRATT has the FDPS bit: anything else has no FDP to
// read (nullopt, no note). The endurance group is the namespace's ENDGID;
// where that is 0 (as real controllers report it), the first group of the
// Endurance Group List (CNS 19h), else group 1, that answers the FDP feature
// or configurations log; none answering is nullopt and one note naming what
// was advertised and what each group answered. Each command may fail on its
// own; a failure becomes a note and the rest still run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "firmware/attempt.h"
#include "firmware/nvme_admin.h"
#include "firmware/nvme_fdp.h"
#include "firmware/nvme_identify.h"

namespace ssdprobe {

// Largest configurations / RUH usage page read (a page states its size).
inline constexpr uint32_t kFdpLogReadCap = 1u << 20;

struct FdpReadScope {
  // The write-counter reads around the write probes need the statistics and
  // the reclaim unit size only: no RUH usage, no events.
  bool counters_only = false;
};

std::optional<NvmeFdp> read_nvme_fdp(NvmeAdmin& admin, const NvmeIdCtrl& ctrl, const NvmeIdNs& ns, Attempts& attempt,
                                     FdpReadScope scope = {});

}  // namespace ssdprobe
