#include "firmware/nvme_capabilities.h"

#include <fmt/format.h>

#include <cctype>
#include <map>

namespace ssdprobe {

namespace {

// Why most capabilities are left alone: they govern administration, not
// how data is laid out on the medium or what an IO costs.
constexpr const char* kNoBearing = "no bearing on how the drive is addressed";
constexpr const char* kSeeNotes = "advertised, but the drive did not answer the commands that read it (see the notes)";

constexpr NvmeBitName kCtratt[] = {
    {0, "128-bit Host Identifier", nullptr, kNoBearing},
    {1, "Non-Operational Power State Permissive Mode", nullptr, kNoBearing},
    {2, "NVM Sets", nullptr, "NVM Sets are not read: the namespace's own Identify data gives its geometry"},
    {3, "Read Recovery Levels", nullptr, kNoBearing},
    {4, "Endurance Groups", nullptr, nullptr},
    {5, "Predictable Latency Mode", nullptr, "not read: the mode changes latency only when the host enables it"},
    {6, "Traffic Based Keep Alive", nullptr, kNoBearing},
    {7, "Namespace Granularity", nullptr, "not read: it governs creating namespaces, not addressing one"},
    {8, "SQ Associations", nullptr, kNoBearing},
    {9, "UUID List", nullptr, kNoBearing},
    {10, "Multi-Domain Subsystem", nullptr, kNoBearing},
    {11, "Fixed Capacity Management", nullptr, kNoBearing},
    {12, "Variable Capacity Management", nullptr, kNoBearing},
    {13, "Delete Endurance Group", nullptr, kNoBearing},
    {14, "Delete NVM Set", nullptr, kNoBearing},
    {15, "Extended LBA Formats", nullptr, "not read: they add protection information formats, not data block sizes"},
    {19, "Flexible Data Placement", nullptr, nullptr},
};

constexpr NvmeBitName kOacs[] = {
    {0, "Security Send/Receive", "security_send_receive", kNoBearing},
    {1, "Format NVM", "format_nvm", nullptr},
    {2, "Firmware Download/Commit", "firmware_download", kNoBearing},
    {3, "Namespace Management", "namespace_management", "not read: it governs creating namespaces, not addressing one"},
    {4, "Device Self-test", "device_self_test", kNoBearing},
    {5, "Directives", "directives", nullptr},
    {6, "NVMe-MI Send/Receive", nullptr, kNoBearing},
    {7, "Virtualization Management", nullptr, kNoBearing},
    {8, "Doorbell Buffer Config", nullptr, kNoBearing},
    {9, "Get LBA Status", nullptr, "not read: it lists LBAs the drive found unrecoverable, not its geometry"},
    {10, "Command and Feature Lockdown", nullptr, kNoBearing},
};

constexpr NvmeBitName kOncs[] = {
    {0, "Compare", "compare", kNoBearing},
    {1, "Write Uncorrectable", "write_uncorrectable", kNoBearing},
    {2, "Dataset Management", "dataset_management", nullptr},
    {3, "Write Zeroes", "write_zeroes", "not used: the write probes write data and restore it, they never zero"},
    {4, "Save/Select in Features", "save_select", kNoBearing},
    {5, "Reservations", "reservations", kNoBearing},
    {6, "Timestamp", "timestamp", kNoBearing},
    {7, "Verify", "verify",
     "not used: a Verify reads the medium without transferring data, which the read grid must time"},
    {8, "Copy", "copy", kNoBearing},
};

// Where a bit with no fixed reason is decoded, when it is.
std::string decoded_where(const std::string& field, int bit, const NvmeFirmwareData& d) {
  if (field == "ctratt" && bit == 4) return d.ns ? "endgid" : "";
  if (field == "ctratt" && bit == 19) return d.fdp ? "fdp" : "";
  if (field == "oacs" && bit == 1) return d.ns ? "lbaf" : "";  // the LBA format advice rests on it
  if (field == "oacs" && bit == 5) return d.directives ? "directives" : "";
  if (field == "oncs" && bit == 2) return d.ns ? "dlfeat" : "";  // what deallocated blocks read as
  return "";
}

void walk_bits(const char* field, uint32_t value, std::span<const NvmeBitName> names, const NvmeFirmwareData& d,
               std::vector<NvmeCapability>& out) {
  for (int bit = 0; bit < 32; ++bit) {
    if ((value & (1u << bit)) == 0) continue;
    NvmeCapability c{.field = field, .bit = bit, .name = fmt::format("bit {}", bit), .decoded = "", .reason = ""};
    c.reason = "not named in NVMe Base 2.0 or by libnvme 1.3: not decoded";
    for (const NvmeBitName& n : names) {
      if (n.bit != bit) continue;
      c.name = n.name;
      c.reason = n.reason ? n.reason : "";
    }
    if (c.reason.empty()) {
      c.decoded = decoded_where(field, bit, d);
      if (c.decoded.empty()) c.reason = kSeeNotes;
    }
    out.push_back(std::move(c));
  }
}

void add_items(const NvmeFirmwareData& d, std::vector<NvmeCapability>& out) {
  if (d.ns && d.ns->lbaf.size() > 1)
    out.push_back({.field = "lbaf", .bit = -1, .name = "more than one LBA format", .decoded = "lbaf", .reason = ""});
  if (d.zns_ns || d.zns_ctrl)
    out.push_back({.field = "zns", .bit = -1, .name = "Zoned Namespace command set", .decoded = "zns", .reason = ""});
  if (d.ocp)
    out.push_back({.field = "ocp", .bit = -1, .name = "OCP SMART / Health Information Extended log (C0h)",
                   .decoded = "ocp", .reason = ""});
  if (d.directives && d.directives->support && d.directives->support->streams_supported()) {
    const bool read = d.directives->streams.has_value();
    out.push_back({.field = "streams", .bit = -1, .name = "Streams directive", .decoded = read ? "directives.streams" : "",
                   .reason = read ? "" : kSeeNotes});
  }
}

}  // namespace

std::span<const NvmeBitName> nvme_oacs_bit_names() { return kOacs; }
std::span<const NvmeBitName> nvme_oncs_bit_names() { return kOncs; }

std::vector<NvmeCapability> nvme_capabilities(const NvmeFirmwareData& data) {
  std::vector<NvmeCapability> out;
  if (data.ctrl) {
    walk_bits("ctratt", data.ctrl->ctratt, kCtratt, data, out);
    walk_bits("oacs", data.ctrl->oacs, kOacs, data, out);
    walk_bits("oncs", data.ctrl->oncs, kOncs, data, out);
  }
  add_items(data, out);
  return out;
}

std::string undecoded_capabilities_note(const std::vector<NvmeCapability>& capabilities) {
  std::map<std::string, std::string> by_reason;  // reason -> "CTRATT bit 1 (name), ..."
  for (const auto& c : capabilities) {
    if (!c.decoded.empty()) continue;
    std::string& names = by_reason[c.reason];
    std::string upper = c.field;
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    names += (names.empty() ? "" : ", ") +
             (c.bit >= 0 ? fmt::format("{} bit {} ({})", upper, c.bit, c.name) : c.name);
  }
  std::string note;
  for (const auto& [reason, names] : by_reason) note += (note.empty() ? "" : "; ") + names + ": " + reason;
  return note.empty() ? note : "NVMe capabilities advertised and not decoded: " + note;
}

}  // namespace ssdprobe
