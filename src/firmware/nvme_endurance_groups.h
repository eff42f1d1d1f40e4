// Which endurance group to ask for a group's logs (FDP, LID 09h) where the
// namespace names none. Real controllers with one endurance group report
// ENDGID 0 in Identify Namespace; nvme-cli then asks group 1. The groups the
// Endurance Group List (Identify CNS 19h) names come first, group 1 only
// when the list is refused or empty. Both readers try the candidates in
// this order, so they agree on the group.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/nvme_admin.h"

namespace ssdprobe {

struct NvmeGroupChoice {
  uint16_t endgid = 0;
  std::string source;  // "namespace", "endurance group list", "assumed 1" (the JSON's endgid_source)
};

// Endurance groups tried when the namespace names none: a controller lists
// few, and each costs commands.
inline constexpr size_t kMaxGroupsTried = 4;

// The candidates in order, read quietly: a controller without the list
// gives group 1 alone.
std::vector<NvmeGroupChoice> nvme_unnamed_group_candidates(NvmeAdmin& admin);

// The groups to read LID 09h for, in order: the one named (the namespace's
// ENDGID, or the group FDP was found in) when there is one; else, on a
// controller with endurance groups (CTRATT bit 4), the unnamed candidates;
// else none.
std::vector<NvmeGroupChoice> nvme_endurance_log_groups(NvmeAdmin& admin, uint32_t ctratt, const NvmeGroupChoice& named);

}  // namespace ssdprobe
