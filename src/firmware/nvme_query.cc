#include "firmware/nvme_query.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "firmware/attempt.h"
#include "firmware/nvme_endurance_groups.h"
#include "firmware/nvme_fdp_query.h"

namespace ssdprobe {

namespace {

void read_namespace(NvmeAdmin& admin, uint32_t nsid, Attempts& attempt, NvmeFirmwareData& data,
                    std::vector<std::string>& notes) {
  if (auto bytes = attempt([&] { return admin.identify_ns(nsid); })) {
    data.ns = decode_nvme_id_ns(*bytes);
    if (!data.ns) notes.push_back(fmt::format("Identify Namespace returned {} bytes, expected 4096", bytes->size()));
  }
  std::vector<std::string> quiet;
  Attempts optional_attempt(quiet);
  if (auto bytes = optional_attempt([&] { return admin.identify_ns_nvm(nsid); })) data.nvm = decode_nvme_nvm_id_ns(*bytes);
  else notes.push_back("NVM command set Identify Namespace (CNS 05h) not available: " +
                       (quiet.empty() ? std::string("skipped") : quiet.front()));
}

void read_logs(NvmeAdmin& admin, Attempts& attempt, NvmeFirmwareData& data, std::vector<std::string>& notes) {
  if (auto bytes = attempt([&] { return admin.smart_log(); })) data.smart = decode_nvme_smart_log(*bytes);
  if (attempt.denied()) return;
  std::vector<std::string> quiet;
  Attempts optional_attempt(quiet);
  const auto ocp = optional_attempt([&] { return admin.log_page(kOcpLogSmartExtended, kNvmeLogPageBytes); });
  if (!ocp) notes.push_back("OCP C0h log not available: " + (quiet.empty() ? std::string("skipped") : quiet.front()));
  else if (!is_ocp_smart_log(*ocp)) notes.push_back("log page C0h is not the OCP SMART extended log (GUID differs)");
  else data.ocp = decode_ocp_smart_log(*ocp);
}

// The directives a namespace supports and, when Streams is among them, its
// parameters. Only where OACS advertises Directives; a refusal is a note.
void read_directives(NvmeAdmin& admin, uint32_t nsid, Attempts& attempt, NvmeFirmwareData& data) {
  if (!data.ctrl || (data.ctrl->oacs & kNvmeOacsDirectives) == 0) return;
  const auto identify = attempt([&] { return admin.directive_parameters(nsid, kNvmeDirectiveIdentify); });
  const auto support = identify ? decode_directive_support(*identify) : std::nullopt;
  if (!support) return;
  NvmeDirectives directives{.support = support, .streams = std::nullopt};
  if (support->streams_supported()) {
    if (const auto bytes = attempt([&] { return admin.directive_parameters(nsid, kNvmeDirectiveStreams); }))
      directives.streams = decode_streams_params(*bytes);
  }
  data.directives = directives;
}

// The Endurance Group Information log of the namespace's group: its ENDGID,
// or the group FDP was read from (hence read after FDP), or where neither
// names one on a controller with endurance groups, the groups the Endurance
// Group List names, else group 1 (nvme_endurance_groups.h): the first that
// answers. Optional: a controller that rejects it gives a note, the rest
// goes on.
void read_endurance_log(NvmeAdmin& admin, NvmeFirmwareData& data, std::vector<std::string>& notes) {
  if (!data.ctrl) return;
  const NvmeGroupChoice named = data.fdp ? NvmeGroupChoice{data.fdp->endgid, data.fdp->endgid_source}
                                         : NvmeGroupChoice{data.ns ? data.ns->endgid : uint16_t{0}, "namespace"};
  std::vector<std::string> failures;
  for (const NvmeGroupChoice& group : nvme_endurance_log_groups(admin, data.ctrl->ctratt, named)) {
    std::vector<std::string> quiet;
    Attempts optional_attempt(quiet);
    const auto bytes = optional_attempt(
        [&] { return admin.endurance_group_log(kNvmeLogEnduranceGroup, group.endgid, 0, kNvmeEnduranceLogBytes); });
    if (bytes) data.endurance = decode_nvme_endurance_log(*bytes, group.endgid);
    if (data.endurance) return;
    failures.push_back(fmt::format("endurance group {}{} not available: {}", group.endgid,
                                   group.source == "namespace" ? "" : fmt::format(" ({})", group.source),
                                   bytes ? fmt::format("{} bytes returned, expected 512", bytes->size())
                                         : (quiet.empty() ? std::string("skipped") : quiet.front())));
  }
  if (failures.empty()) return;
  notes.push_back(fmt::format("Endurance Group Information log (09h) of {}", fmt::join(failures, "; ")));
}

// Identify, read quietly for the write counters: whether the endurance group
// has FDP (its statistics and reclaim unit size) and which group's
// Endurance Group Information log holds the media units written.
void read_counter_logs(NvmeAdmin& admin, const NvmeTarget& target, Attempts& attempt, NvmeFirmwareData& data,
                       std::vector<std::string>& notes) {
  std::vector<std::string> quiet;
  Attempts optional_attempt(quiet);
  const auto ctrl = optional_attempt([&] { return admin.identify_ctrl(); });
  data.ctrl = ctrl ? decode_nvme_id_ctrl(*ctrl) : std::nullopt;
  if (!data.ctrl) return;
  data.nsid = target.nsid ? target.nsid : admin.nsid();
  const auto ns = data.nsid ? optional_attempt([&] { return admin.identify_ns(*data.nsid); }) : std::nullopt;
  data.ns = ns ? decode_nvme_id_ns(*ns) : std::nullopt;
  if (data.ns && nvme_ctrl_supports_fdp(data.ctrl->ctratt))
    data.fdp = read_nvme_fdp(admin, *data.ctrl, *data.ns, attempt, {.counters_only = true});
  read_endurance_log(admin, data, notes);
}

}  // namespace

std::string nvme_admin_node(const NvmeTarget& target) {
  if (!target.namespace_disk.empty()) return target.namespace_path();
  if (!target.generic.empty()) return target.generic_path();
  return target.controller_path();
}

NvmeFirmwareData read_nvme_firmware(const NvmeTarget& target, const NvmeAdminOpener& open,
                                    std::vector<std::string>& notes) {
  NvmeFirmwareData data;
  Attempts attempt(notes);
  const std::string node = nvme_admin_node(target);
  auto admin = attempt([&] { return open(node); });
  if (!admin || !*admin) return data;
  NvmeAdmin& a = **admin;
  if (auto bytes = attempt([&] { return a.identify_ctrl(); })) {
    data.ctrl = decode_nvme_id_ctrl(*bytes);
    if (!data.ctrl) notes.push_back(fmt::format("Identify Controller returned {} bytes, expected 4096", bytes->size()));
  }
  if (attempt.denied()) return data;
  data.nsid = target.nsid ? target.nsid : a.nsid();
  if (data.nsid) read_namespace(a, *data.nsid, attempt, data, notes);
  else notes.push_back(fmt::format("no NVMe namespace found for {}; Identify Namespace skipped", node));
  read_logs(a, attempt, data, notes);
  if (data.ctrl && data.ns) data.fdp = read_nvme_fdp(a, *data.ctrl, *data.ns, attempt);
  if (!attempt.denied()) read_endurance_log(a, data, notes);
  if (data.nsid && !attempt.denied()) read_directives(a, *data.nsid, attempt, data);
  return data;
}

NvmeFirmwareData read_nvme_logs(const NvmeTarget& target, const NvmeAdminOpener& open,
                                std::vector<std::string>& notes) {
  NvmeFirmwareData data;
  Attempts attempt(notes);
  auto admin = attempt([&] { return open(nvme_admin_node(target)); });
  if (!admin || !*admin) return data;
  read_logs(**admin, attempt, data, notes);
  if (!attempt.denied()) read_counter_logs(**admin, target, attempt, data, notes);
  return data;
}

}  // namespace ssdprobe
