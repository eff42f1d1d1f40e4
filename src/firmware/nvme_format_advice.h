// The LBA format advice (analysis/lba_format_advice.h) for the NVMe
// namespace a target is on, from what its firmware reported.
#pragma once

#include <optional>
#include <string>

#include "analysis/lba_format_advice.h"
#include "device/topology.h"
#include "firmware/nvme_reported.h"

namespace ssdprobe {

// The formats Identify Namespace lists, the one in use, the NSID and
// Identify Controller's FNA bit (unknown when `ctrl` was not read); `device`
// is the node the command names.
NamespaceFormats namespace_formats(const NvmeFirmwareData& nvme, const std::string& device);

// nullopt unless the target is an NVMe namespace (or a partition of one)
// whose Identify Namespace was read and lists a better format than the one
// in use. `target_path` is the node the user gave; for a partition the
// command names its whole namespace, /dev/`disk_name`.
std::optional<LbaFormatAdvice> nvme_lba_format_advice(const std::optional<NvmeFirmwareData>& nvme, TargetKind kind,
                                                      const std::string& target_path, const std::string& disk_name);

}  // namespace ssdprobe
