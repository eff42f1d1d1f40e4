// Opens the NVMe passthrough engine (device/nvme_passthru_device.h) for any
// NVMe path: namespace, partition, generic or controller node. Lives here,
// not in device, because it reads Identify Namespace/Controller (LBA size,
// capacity, MDTS) through an NvmeAdmin.
#pragma once

#include <memory>
#include <string>

#include "device/nvme_passthru_device.h"
#include "device/target.h"
#include "firmware/nvme_query.h"

namespace ssdprobe {

// Finds /dev/ngXnY through sysfs, reads Identify through `open_admin` and
// checks with verify() that passthrough works. Throws Error(unsupported) for
// a non-NVMe path, a missing generic device or a metadata LBA format,
// Error(permission) naming CAP_SYS_ADMIN.
std::unique_ptr<NvmePassthruDevice> open_nvme_passthru(const std::string& path, bool writable,
                                                       const std::string& sysfs_root = "/sys",
                                                       const NvmeAdminOpener& open_admin = open_nvme_admin);

// open_nvme_passthru with the real sysfs and libnvme, as open_target and
// open_engine (device/target.h) take it.
PassthruOpener nvme_passthru_opener();

}  // namespace ssdprobe
