#include "firmware/nvme_format_advice.h"

namespace ssdprobe {

NamespaceFormats namespace_formats(const NvmeFirmwareData& nvme, const std::string& device) {
  NamespaceFormats f;
  if (nvme.ns) {
    for (const auto& entry : nvme.ns->lbaf) f.formats.push_back({entry.ds, entry.ms, entry.rp});
    f.in_use = nvme.ns->lbaf_in_use();
  }
  f.nsid = nvme.nsid;
  if (nvme.ctrl) f.format_applies_to_all_namespaces = nvme.ctrl->format_applies_to_all_namespaces();
  f.device = device;
  return f;
}

std::optional<LbaFormatAdvice> nvme_lba_format_advice(const std::optional<NvmeFirmwareData>& nvme, TargetKind kind,
                                                      const std::string& target_path, const std::string& disk_name) {
  if (!nvme || !nvme->ns) return std::nullopt;
  std::string device;
  if (kind == TargetKind::block) device = target_path;
  if (kind == TargetKind::partition && !disk_name.empty()) device = "/dev/" + disk_name;
  if (device.empty()) return std::nullopt;
  return lba_format_advice(namespace_formats(*nvme, device));
}

}  // namespace ssdprobe
