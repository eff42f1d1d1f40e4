#include "firmware/nvme_fdp_query.h"

#include <fmt/format.h>

#include "firmware/nvme_endurance_groups.h"

namespace ssdprobe {

namespace {

constexpr uint8_t kLspControllerEvents = 0;
constexpr uint8_t kLspHostEvents = 1;
// A page that states its own size: its header first, then the whole page.
template <typename SizeOf>
std::optional<std::vector<uint8_t>> read_sized_log(NvmeAdmin& admin, uint8_t lid, uint16_t endgid, uint32_t header,
                                                   SizeOf size_of, Attempts& attempt) {
  const auto head = attempt([&] { return admin.endurance_group_log(lid, endgid, 0, header); });
  if (!head) return std::nullopt;
  const auto size = size_of(*head, kFdpLogReadCap);
  if (!size || *size <= header) return head;
  return attempt([&] { return admin.endurance_group_log(lid, endgid, 0, *size); });
}

std::optional<FdpEventsLog> read_events(NvmeAdmin& admin, uint16_t endgid, uint8_t lsp, Attempts& attempt) {
  const auto bytes = attempt([&] {
    return admin.endurance_group_log(kNvmeLogFdpEvents, endgid, lsp, static_cast<uint32_t>(kFdpEventsLogBytes));
  });
  return bytes ? decode_fdp_events(*bytes) : std::nullopt;
}

NvmeFdp read_group(NvmeAdmin& admin, const NvmeGroupChoice& group, Attempts& attempt, FdpReadScope scope) {
  NvmeFdp fdp;
  fdp.endgid = group.endgid;
  fdp.endgid_source = group.source;
  if (const auto dword0 = attempt([&] { return admin.get_feature(kNvmeFeatureFdp, fdp.endgid); }))
    fdp.feature = decode_fdp_feature(*dword0);
  if (const auto bytes = read_sized_log(admin, kNvmeLogFdpConfigurations, fdp.endgid,
                                        static_cast<uint32_t>(kFdpConfigHeaderBytes), fdp_configurations_size, attempt))
    fdp.configurations = decode_fdp_configurations(*bytes);
  if (const auto bytes = attempt([&] {
        return admin.endurance_group_log(kNvmeLogFdpStatistics, fdp.endgid, 0, static_cast<uint32_t>(kFdpStatisticsBytes));
      }))
    fdp.statistics = decode_fdp_statistics(*bytes);
  if (scope.counters_only) return fdp;
  if (const auto bytes = read_sized_log(admin, kNvmeLogFdpRuhUsage, fdp.endgid,
                                        static_cast<uint32_t>(kFdpRuhUsageHeaderBytes), fdp_ruh_usage_size, attempt))
    fdp.ruh_usage = decode_fdp_ruh_usage(*bytes);
  fdp.host_events = read_events(admin, fdp.endgid, kLspHostEvents, attempt);
  fdp.controller_events = read_events(admin, fdp.endgid, kLspControllerEvents, attempt);
  return fdp;
}

// The first candidate whose FDP feature or configurations answer; a note
// naming what the controller advertised and what each group answered when
// none does.
std::optional<NvmeFdp> read_unnamed_group(NvmeAdmin& admin, Attempts& attempt, FdpReadScope scope) {
  std::vector<std::string> failures;
  for (const NvmeGroupChoice& group : nvme_unnamed_group_candidates(admin)) {
    std::vector<std::string> quiet;
    Attempts group_attempt(quiet);
    NvmeFdp fdp = read_group(admin, group, group_attempt, scope);
    if (fdp.feature || fdp.configurations) {
      for (auto& n : quiet) attempt.note(std::move(n));
      return fdp;
    }
    failures.push_back(fmt::format("endurance group {} ({}): {}", group.endgid, group.source,
                                   quiet.empty() ? std::string("no answer") : quiet.front()));
  }
  std::string tried;
  for (const auto& f : failures) tried += (tried.empty() ? "" : "; ") + f;
  attempt.note("CTRATT says FDP (bit 19) but the namespace reports ENDGID 0 and no endurance group answered the FDP "
               "feature (1Dh) or configurations log (20h): " + tried);
  return std::nullopt;
}

}  // namespace

std::optional<NvmeFdp> read_nvme_fdp(NvmeAdmin& admin, const NvmeIdCtrl& ctrl, const NvmeIdNs& ns, Attempts& attempt,
                                     FdpReadScope scope) {
  if (!nvme_ctrl_supports_fdp(ctrl.ctratt)) return std::nullopt;
  if (ns.endgid != 0) return read_group(admin, {ns.endgid, "namespace"}, attempt, scope);
  return read_unnamed_group(admin, attempt, scope);
}

}  // namespace ssdprobe
