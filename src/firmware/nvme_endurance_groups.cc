#include "firmware/nvme_endurance_groups.h"

#include "firmware/attempt.h"
#include "firmware/nvme_endurance_log.h"
#include "firmware/nvme_identify.h"

namespace ssdprobe {

std::vector<NvmeGroupChoice> nvme_unnamed_group_candidates(NvmeAdmin& admin) {
  std::vector<std::string> quiet;
  Attempts optional_attempt(quiet);
  std::vector<NvmeGroupChoice> groups;
  if (const auto bytes = optional_attempt([&] { return admin.identify_endurance_groups(0); })) {
    for (uint16_t id : decode_nvme_endurance_group_list(*bytes).value_or(std::vector<uint16_t>{})) {
      if (id != 0 && groups.size() < kMaxGroupsTried) groups.push_back({id, "endurance group list"});
    }
  }
  if (groups.empty()) groups.push_back({1, "assumed 1"});
  return groups;
}

std::vector<NvmeGroupChoice> nvme_endurance_log_groups(NvmeAdmin& admin, uint32_t ctratt,
                                                      const NvmeGroupChoice& named) {
  if (named.endgid != 0) return {named};
  if ((ctratt & kNvmeCtrattEnduranceGroups) == 0) return {};
  return nvme_unnamed_group_candidates(admin);
}

}  // namespace ssdprobe
