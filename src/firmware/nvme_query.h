// Reads everything ssdprobe decodes from one NVMe namespace through an
// NvmeAdmin: Identify Controller, Identify Namespace, the NVM command set
// namespace page, the SMART/Health log, the OCP C0h log and the Endurance
// Group Information log (09h) of the namespace's group. Each command may
// fail on its own; a failure becomes a note and the rest still run (after a
// permission refusal nothing more is tried). Never throws ssdprobe::Error.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "firmware/nvme_admin.h"
#include "device/nvme_paths.h"
#include "firmware/nvme_reported.h"

namespace ssdprobe {

using NvmeAdminOpener = std::function<std::unique_ptr<NvmeAdmin>(const std::string& device_path)>;

// The node admin commands go to: the namespace block device, else the
// generic char device, else the controller.
std::string nvme_admin_node(const NvmeTarget& target);

NvmeFirmwareData read_nvme_firmware(const NvmeTarget& target, const NvmeAdminOpener& open,
                                    std::vector<std::string>& notes);

// The SMART/Health and OCP C0h logs, the Endurance Group Information log
// (09h: media units written) and, on a controller with FDP, the FDP
// statistics and configurations of the namespace's endurance group (for write
// counters; Identify is read quietly to find out).
NvmeFirmwareData read_nvme_logs(const NvmeTarget& target, const NvmeAdminOpener& open,
                                std::vector<std::string>& notes);

}  // namespace ssdprobe
