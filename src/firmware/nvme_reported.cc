#include "firmware/nvme_reported.h"

namespace ssdprobe {

NvmeDerivedSizes NvmeFirmwareData::sizes() const {
  return derive_nvme_sizes(ctrl ? &*ctrl : nullptr, ns ? &*ns : nullptr, nvm ? &*nvm : nullptr, memory_page_bytes);
}

}  // namespace ssdprobe
