#include "firmware/nvme_passthru_open.h"

#include <fmt/format.h>

#include "core/error.h"
#include "firmware/nvme_identify.h"

namespace ssdprobe {

namespace {

// The LBA size of the format in use; throws Error(unsupported) for an
// invalid format or one with metadata (transfers would carry it inline).
uint64_t usable_lba_bytes(const NvmeIdNs& ns, const std::string& path) {
  const auto lba = ns.lba_bytes();
  if (!lba) throw Error(ErrorCategory::unsupported, path + ": the namespace's LBA format is not valid");
  const unsigned format = ns.lbaf_in_use();
  if (ns.lbaf[format].ms != 0) {
    throw Error(ErrorCategory::unsupported,
                fmt::format("{}: LBA format {} carries {} B of metadata per block; the passthrough engine "
                            "supports metadata-free formats only",
                            path, format, ns.lbaf[format].ms));
  }
  return *lba;
}

NvmeNamespaceGeometry identify(const NvmeTarget& t, const std::string& path, const NvmeAdminOpener& open_admin) {
  auto admin = open_admin(t.generic_path());
  const auto nsid = t.nsid ? t.nsid : admin->nsid();
  if (!nsid) throw Error(ErrorCategory::target, t.generic_path() + ": no namespace ID");
  const auto ns = decode_nvme_id_ns(admin->identify_ns(*nsid));
  const auto ctrl = decode_nvme_id_ctrl(admin->identify_ctrl());
  if (!ns || !ctrl) throw Error(ErrorCategory::io, t.generic_path() + ": short Identify data");
  return NvmeNamespaceGeometry{*nsid, usable_lba_bytes(*ns, path), ns->nsze,
                               derive_nvme_sizes(&*ctrl, nullptr, nullptr).mdts_bytes};
}

}  // namespace

std::unique_ptr<NvmePassthruDevice> open_nvme_passthru(const std::string& path, bool writable,
                                                       const std::string& sysfs_root,
                                                       const NvmeAdminOpener& open_admin) {
  const auto target = resolve_nvme_target(path, sysfs_root);
  if (!target) throw Error(ErrorCategory::unsupported, path + " is not an NVMe device: no passthrough engine");
  if (target->generic.empty())
    throw Error(ErrorCategory::unsupported,
                fmt::format("{}: no NVMe generic char device (/dev/ngXnY; needs Linux 5.13+)", path));
  auto device = open_nvme_passthru_device(*target, identify(*target, path, open_admin), writable, sysfs_root);
  try {
    device->verify();
  } catch (const Error& e) {
    if (device->last_nvme_status() == 0) throw;
    throw Error(e.category(), fmt::format("{}: {}", e.what(), nvme_status_text(device->last_nvme_status())));
  }
  return device;
}

PassthruOpener nvme_passthru_opener() {
  return [](const std::string& path, bool writable) -> std::unique_ptr<Device> {
    return open_nvme_passthru(path, writable);
  };
}

}  // namespace ssdprobe
