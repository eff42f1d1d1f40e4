#include "firmware/nvme_zns_query.h"

#include <fmt/format.h>

#include "firmware/attempt.h"

namespace ssdprobe {

void read_nvme_zns(const NvmeTarget& target, const NvmeAdminOpener& open, NvmeFirmwareData& data,
                   std::vector<std::string>& notes) {
  if (!data.nsid) {
    notes.push_back("zoned namespace without a namespace ID: the ZNS Identify pages were not read");
    return;
  }
  Attempts attempt(notes);
  auto admin = attempt([&] { return open(nvme_admin_node(target)); });
  if (!admin || !*admin) return;
  NvmeAdmin& a = **admin;
  if (auto bytes = attempt([&] { return a.identify_ns_zns(*data.nsid); })) {
    data.zns_ns = decode_nvme_zns_id_ns(*bytes);
    if (!data.zns_ns) notes.push_back(fmt::format("ZNS Identify Namespace returned {} bytes, expected 4096", bytes->size()));
  }
  if (attempt.denied()) return;
  if (auto bytes = attempt([&] { return a.identify_ctrl_zns(); })) {
    data.zns_ctrl = decode_nvme_zns_id_ctrl(*bytes);
    if (!data.zns_ctrl) notes.push_back(fmt::format("ZNS Identify Controller returned {} bytes, expected 4096", bytes->size()));
  }
}

}  // namespace ssdprobe
