// The NvmeAdmin methods that are not pure virtual: an implementation that
// does not provide a command answers like a controller without it.
#include "firmware/nvme_admin.h"

#include "core/error.h"

namespace ssdprobe {

std::vector<uint8_t> NvmeAdmin::identify_ns_zns(uint32_t /*nsid*/) {
  throw Error(ErrorCategory::unsupported, "Identify Namespace (Zoned Namespace command set): not supported");
}

std::vector<uint8_t> NvmeAdmin::identify_ctrl_zns() {
  throw Error(ErrorCategory::unsupported, "Identify Controller (Zoned Namespace command set): not supported");
}

}  // namespace ssdprobe
