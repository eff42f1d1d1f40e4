// What the NVMe firmware reports about one namespace, as decoded structs; the
// report layer renders it as `reported.nvme` (report/firmware_json.h).
#pragma once

#include <cstdint>
#include <optional>

#include "firmware/nvme_directives.h"
#include "firmware/nvme_endurance_log.h"
#include "firmware/nvme_fdp.h"
#include "firmware/nvme_identify.h"
#include "firmware/nvme_logs.h"
#include "firmware/nvme_zns.h"

namespace ssdprobe {

// Everything read from one NVMe namespace and its controller. Each part is
// optional because each command can fail on its own.
struct NvmeFirmwareData {
  std::optional<NvmeIdCtrl> ctrl;
  std::optional<NvmeIdNs> ns;
  std::optional<uint32_t> nsid;
  std::optional<NvmeNvmIdNs> nvm;
  std::optional<NvmeSmartLog> smart;
  std::optional<OcpSmartLog> ocp;
  // Zoned Namespace pages, read only for a zoned namespace (nvme_zns_query.h).
  std::optional<NvmeZnsIdNs> zns_ns;
  std::optional<NvmeZnsIdCtrl> zns_ctrl;
  std::optional<NvmeFdp> fdp;  // when CTRATT.FDPS is set and an endurance group answered
  std::optional<NvmeDirectives> directives;  // when OACS says Directives and the Identify directive answered
  // Endurance Group Information log (09h) of the namespace's endurance group.
  std::optional<NvmeEnduranceLog> endurance;
  uint64_t memory_page_bytes = 4096;  // CAP.MPSMIN in bytes; scales MDTS only

  // The byte sizes the parts read imply (nullopt where a part is missing).
  NvmeDerivedSizes sizes() const;
  NvmeZnsSizes zns_sizes() const;
};

}  // namespace ssdprobe
