// Reads the Zoned Namespace Command Set Identify pages of an NVMe namespace
// the kernel reports as zoned (ZNS), into the NvmeFirmwareData already read
// for it. Asked only for zoned namespaces: a controller without ZNS may
// answer CNS 05h/06h with CSI 02h unpredictably. Failures become notes.
#pragma once

#include <string>
#include <vector>

#include "device/nvme_paths.h"
#include "firmware/nvme_query.h"
#include "firmware/nvme_reported.h"

namespace ssdprobe {

void read_nvme_zns(const NvmeTarget& target, const NvmeAdminOpener& open, NvmeFirmwareData& data,
                   std::vector<std::string>& notes);

}  // namespace ssdprobe
