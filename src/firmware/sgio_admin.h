// SCSI commands through the SG_IO ioctl, behind a small interface so the
// firmware probe can be tested with captured bytes. The real implementation
// (open_sgio_admin) is the only SG_IO user in ssdprobe; it issues, on a whole
// disk (/dev/sdX; the kernel refuses SG_IO on partitions):
//   ATA PASS-THROUGH(16) IDENTIFY DEVICE  85 08 0E 00 00 00 01 00 00 00 00 00 00 00 EC 00
//   READ CAPACITY(16)                     9E 10 ... allocation length 32
//   INQUIRY (standard, 36 B) and INQUIRY VPD pages (B0h: 64 B, 80h: 252 B)
// all read-only (data-in). Commands return the bytes the device sent (the
// buffer shortened by the residual count) and throw ssdprobe::Error:
//   permission  - EPERM/EACCES; the message names CAP_SYS_RAWIO, which ATA
//                 pass-through needs
//   unsupported - the device rejects the command (ILLEGAL REQUEST) or the
//                 node takes no SG_IO (ENOTTY, e.g. not a SCSI disk)
//   io          - any other failure, with the decoded sense data
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ssdprobe {

class SgioAdmin {
 public:
  virtual ~SgioAdmin() = default;

  virtual std::vector<uint8_t> ata_identify() = 0;
  virtual std::vector<uint8_t> read_capacity16() = 0;
  virtual std::vector<uint8_t> inquiry() = 0;
  virtual std::vector<uint8_t> inquiry_vpd(uint8_t page) = 0;
};

// Opens `disk_path` read-only. Throws Error(permission | target).
std::unique_ptr<SgioAdmin> open_sgio_admin(const std::string& disk_path);

// What came back from one SG_IO call, for sgio_check().
struct SgioOutcome {
  unsigned info = 0;           // sg_io_hdr.info
  uint8_t status = 0;          // SCSI status (SAM), 02h = CHECK CONDITION
  uint16_t host_status = 0;
  uint16_t driver_status = 0;
  std::span<const uint8_t> sense;  // the sb_len_wr bytes the kernel wrote
  bool ata_passthrough = false;    // the command was an ATA PASS-THROUGH
};

struct SgioVerdict {
  bool ok = false;
  bool unsupported = false;  // ILLEGAL REQUEST: the device does not do this
  std::string problem;       // why it failed, for the error message
};

// The checks PLATFORM.md lists: success when (info & SG_INFO_OK_MASK) is
// SG_INFO_OK, or when the only "problem" is NO SENSE / RECOVERED ERROR with
// ASC/ASCQ 00h/1Dh (ATA PASS-THROUGH INFORMATION AVAILABLE) that some SAT
// bridges return on success; an ATA Status Return descriptor with the ERR
// bit set is a failure even then. Pure function.
SgioVerdict sgio_check(const SgioOutcome& outcome);

}  // namespace ssdprobe
