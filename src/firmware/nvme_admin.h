// NVMe admin commands ssdprobe needs, behind a small interface so decoding
// and the firmware probe can be tested with captured or hand-built bytes.
// The real implementation (open_nvme_admin) is the only code that includes
// libnvme; it opens the device with open(2) (libnvme 1.3's nvme_open takes
// bare names only) and uses libnvme's fd-based calls.
//
// Every command returns the raw data structure and throws ssdprobe::Error:
//   permission  - EPERM/EACCES: the message says passthrough needs CAP_SYS_ADMIN
//   unsupported - the controller rejects the command or log page (Invalid
//                 Opcode, Invalid Field in Command, Invalid Log Page) or the
//                 device node takes no NVMe ioctls (ENOTTY)
//   io          - any other NVMe status (decoded to text) or errno
// Admin commands only read: nothing here changes the drive.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

class NvmeAdmin {
 public:
  virtual ~NvmeAdmin() = default;

  virtual std::vector<uint8_t> identify_ctrl() = 0;               // CNS 01h, 4096 B
  virtual std::vector<uint8_t> identify_ns(uint32_t nsid) = 0;    // CNS 00h, 4096 B
  virtual std::vector<uint8_t> identify_ns_nvm(uint32_t nsid) = 0;  // CNS 05h CSI 00h, 4096 B
  virtual std::vector<uint8_t> smart_log() = 0;                   // log 02h, NSID FFFFFFFFh, 512 B
  // Any log page for NSID FFFFFFFFh (e.g. C0h), `length` bytes.
  virtual std::vector<uint8_t> log_page(uint8_t lid, uint32_t length) = 0;
  // The namespace ID of the opened node (NVME_IOCTL_ID); nullopt for a
  // controller node, which has none.
  virtual std::optional<uint32_t> nsid() = 0;

  // Not pure: a backend that does not provide these (a test fake, another
  // transport) answers Error(unsupported), as a controller without them
  // does (nvme_admin_defaults.cc).
  //
  // Zoned Namespace Command Set pages.
  virtual std::vector<uint8_t> identify_ns_zns(uint32_t nsid);  // CNS 05h CSI 02h, 4096 B
  virtual std::vector<uint8_t> identify_ctrl_zns();             // CNS 06h CSI 02h, 4096 B
  // A log page scoped by its Log Specific Identifier, here an endurance
  // group (the FDP logs 20h..23h): NSID 0, LSI = endgid, LSP as given,
  // `length` bytes from the start.
  virtual std::vector<uint8_t> endurance_group_log(uint8_t lid, uint16_t endgid, uint8_t lsp, uint32_t length);
  // Get Features, current value: completion dword 0 of feature `fid` with
  // command dword 11 = `cdw11` (FDP, 1Dh: the endurance group).
  virtual uint32_t get_feature(uint8_t fid, uint32_t cdw11);
  // Identify CNS 19h, the Endurance Group List: the controller's endurance
  // group identifiers from `start` up, 4096 B.
  virtual std::vector<uint8_t> identify_endurance_groups(uint16_t start);
  // Directive Receive, Return Parameters (DOPER 01h) of directive type
  // `dtype` (00h Identify: 4096 B; 01h Streams: 32 B) for namespace `nsid`.
  virtual std::vector<uint8_t> directive_parameters(uint32_t nsid, uint8_t dtype);
};

// Opens `device_path` (/dev/nvme0, /dev/nvme0n1 or /dev/ng0n1) read-only.
// Throws Error(permission) naming CAP_SYS_ADMIN when open(2) is refused,
// Error(target) when the node does not exist.
std::unique_ptr<NvmeAdmin> open_nvme_admin(const std::string& device_path);

// Text for an NVMe status value as libnvme returns it (SCT << 8 | SC, with
// CRD/More/DNR above): "Invalid Field in Command (0x2)".
std::string nvme_status_text(int status);

// True for the statuses that mean "the controller does not support this":
// Invalid Opcode, Invalid Field in Command, Invalid Log Page.
bool nvme_status_is_unsupported(int status);

}  // namespace ssdprobe
