// The NvmeAdmin methods that are not pure virtual: an implementation that
// does not provide a command answers like a controller without it.
#include "firmware/nvme_admin.h"

#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {

std::vector<uint8_t> NvmeAdmin::identify_ns_zns(uint32_t /*nsid*/) {
  throw Error(ErrorCategory::unsupported, "Identify Namespace (Zoned Namespace command set): not supported");
}

std::vector<uint8_t> NvmeAdmin::identify_ctrl_zns() {
  throw Error(ErrorCategory::unsupported, "Identify Controller (Zoned Namespace command set): not supported");
}

std::vector<uint8_t> NvmeAdmin::endurance_group_log(uint8_t lid, uint16_t endgid, uint8_t, uint32_t) {
  throw Error(ErrorCategory::unsupported,
              fmt::format("Get Log Page {:02X}h (endurance group {}): not supported by this NVMe backend", lid, endgid));
}

uint32_t NvmeAdmin::get_feature(uint8_t fid, uint32_t) {
  throw Error(ErrorCategory::unsupported, fmt::format("Get Features {:02X}h: not supported by this NVMe backend", fid));
}

std::vector<uint8_t> NvmeAdmin::identify_endurance_groups(uint16_t) {
  throw Error(ErrorCategory::unsupported, "Identify CNS 19h (Endurance Group List): not supported by this NVMe backend");
}

std::vector<uint8_t> NvmeAdmin::directive_parameters(uint32_t, uint8_t dtype) {
  throw Error(ErrorCategory::unsupported,
              fmt::format("Directive Receive (type {:02X}h): not supported by this NVMe backend", dtype));
}

}  // namespace ssdprobe
