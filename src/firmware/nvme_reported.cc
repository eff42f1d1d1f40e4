#include "firmware/nvme_reported.h"

namespace ssdprobe {

NvmeDerivedSizes NvmeFirmwareData::sizes() const {
  return derive_nvme_sizes(ctrl ? &*ctrl : nullptr, ns ? &*ns : nullptr, nvm ? &*nvm : nullptr, memory_page_bytes);
}

NvmeZnsSizes NvmeFirmwareData::zns_sizes() const {
  return derive_nvme_zns_sizes(zns_ns ? &*zns_ns : nullptr, zns_ctrl ? &*zns_ctrl : nullptr, ns ? &*ns : nullptr,
                               memory_page_bytes);
}

}  // namespace ssdprobe
