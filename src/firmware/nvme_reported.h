// The `reported.nvme` object of the result document
// (../shared/spec/result-json.md): what the NVMe firmware says, under the
// spec's field names in lower case with raw values, plus `<name>_bytes` for
// every derived size (null where the field is not valid or not reported).
//
// Layout, in order: model, serial, firmware, the controller fields (vid,
// ssvid, ieee, ver, version, cntlid, cntrltype, mdts, mdts_bytes, oacs,
// oacs_bits, oncs, oncs_bits, vwc, awun, awun_bytes, awupf, awupf_bytes, acwu,
// acwu_bytes, nn, tnvmcap, unvmcap, ctratt), nsid, the namespace fields
// (nsze .. eui64, nsfeat with nsfeat_bits, flbas, lbaf_in_use, lbaf [{ds, ms, rp}], lba_bytes,
// nsze_bytes, npwg/npwa/npdg/npda/nows with _bytes, nawun/nawupf/nacwu with
// _bytes, nabsn/nabo/nabspf with _bytes, noiob with noiob_bytes), `nvm` (the
// NVM command set namespace page: npdgl, npdal, nprg, npra, nors, or null),
// `smart` (SMART/Health log, or null) and `ocp` (OCP C0h page, or null).
// Fields of a structure that could not be read are absent, not invented;
// `identify_ctrl` / `identify_ns` say whether each page was read.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

#include "firmware/nvme_identify.h"
#include "firmware/nvme_logs.h"

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
  uint64_t memory_page_bytes = 4096;  // CAP.MPSMIN in bytes; scales MDTS only

  NvmeDerivedSizes sizes() const {
    return derive_nvme_sizes(ctrl ? &*ctrl : nullptr, ns ? &*ns : nullptr, nvm ? &*nvm : nullptr,
                             memory_page_bytes);
  }
};

nlohmann::ordered_json nvme_reported_json(const NvmeFirmwareData& data);

}  // namespace ssdprobe
