// Every capability an NVMe controller advertises, with what ssdprobe did
// with it: decoded (and where the result document has it) or not, and why.
// A capability the drive states and the tool silently skips is how
// "fdp": null with no note happened on a real controller; this list makes
// that visible and testable. Covered: each set bit of Identify Controller
// CTRATT, OACS and ONCS, a namespace with more than one LBA format, the
// Zoned Namespace pages, the OCP C0h log and the Streams directive.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "firmware/nvme_reported.h"

namespace ssdprobe {

struct NvmeCapability {
  std::string field;    // "ctratt", "oacs", "oncs", "lbaf", "zns", "ocp", "streams"
  int bit = -1;         // the bit within `field`; -1 for the items that are not a bit
  std::string name;     // "Flexible Data Placement"
  std::string decoded;  // where reported.nvme has it ("fdp"); empty when not decoded
  std::string reason;   // why it is not decoded; empty when decoded
};

std::vector<NvmeCapability> nvme_capabilities(const NvmeFirmwareData& data);

// One table per field, the only place a bit's meaning is written: the
// capability list above and the JSON's oacs_bits/oncs_bits read it.
struct NvmeBitName {
  int bit;
  const char* name;      // as NVMe Base 2.0 names it
  const char* json_key;  // its key in reported.nvme.controller.*_bits; nullptr: not one of them
  const char* reason;    // why it is not decoded; nullptr: decoded when its part of the document is present
};
std::span<const NvmeBitName> nvme_oacs_bit_names();
std::span<const NvmeBitName> nvme_oncs_bit_names();

// One line for the notes naming the advertised capabilities that were not
// decoded, grouped by reason; empty when there are none.
std::string undecoded_capabilities_note(const std::vector<NvmeCapability>& capabilities);

}  // namespace ssdprobe
