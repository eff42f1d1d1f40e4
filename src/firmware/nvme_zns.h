// Decoders for the Zoned Namespace Command Set's Identify data (NVM Express
// Zoned Namespace Command Set Specification 1.1; field names are the spec's,
// in lower case), from the raw 4096-byte buffers:
//   I/O Command Set specific Identify Namespace, CNS 05h CSI 02h
//   I/O Command Set specific Identify Controller, CNS 06h CSI 02h
// Pure functions like nvme_identify.h: a short buffer is rejected (nullopt),
// every read is bounds-checked. Encodings:
//  - MAR and MOR are 0's based counts of zones; FFFFFFFFh means no limit.
//  - ZSZE (per LBA format, in the LBA Format Extension list at byte 2816) is
//    the zone size in logical blocks; ZDES the zone descriptor extension
//    size in units of 64 bytes.
//  - ZASL is a power of two in units of CAP.MPSMIN; 0 means MDTS applies.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "firmware/nvme_identify.h"

namespace ssdprobe {

inline constexpr uint32_t kZnsNoLimit = 0xffffffffu;

// One LBA Format Extension entry (16 bytes each, 64 of them).
struct NvmeZnsLbaFormatExtension {
  uint64_t zsze = 0;  // zone size, logical blocks
  uint8_t zdes = 0;   // zone descriptor extension size, 64 B units
};

struct NvmeZnsIdNs {
  uint16_t zoc = 0;   // zone operation characteristics
  uint16_t ozcs = 0;  // optional zoned command support
  uint32_t mar = 0, mor = 0;
  uint32_t rrl = 0, frl = 0, rrl1 = 0, rrl2 = 0, rrl3 = 0, frl1 = 0, frl2 = 0, frl3 = 0;  // seconds
  uint32_t numzrwa = 0;  // 0's based count of ZRWA resources
  uint16_t zrwafg = 0, zrwasz = 0;  // logical blocks
  uint8_t zrwacap = 0;
  std::vector<NvmeZnsLbaFormatExtension> lbafe;  // all 64 entries

  bool vzcap() const { return (zoc & 0x1) != 0; }     // variable zone capacity
  bool zae() const { return (zoc & 0x2) != 0; }       // zone active excursions
  bool razb() const { return (ozcs & 0x1) != 0; }     // read across zone boundaries
  bool zrwasup() const { return (ozcs & 0x2) != 0; }  // zone random write area supported
  // Zones the namespace may hold active / open at once; nullopt: no limit.
  std::optional<uint64_t> max_active_zones() const;
  std::optional<uint64_t> max_open_zones() const;
};

struct NvmeZnsIdCtrl {
  uint8_t zasl = 0;  // zone append size limit
};

std::optional<NvmeZnsIdNs> decode_nvme_zns_id_ns(std::span<const uint8_t> buffer);
std::optional<NvmeZnsIdCtrl> decode_nvme_zns_id_ctrl(std::span<const uint8_t> buffer);

// Sizes in bytes for the LBA format in use (`ns` gives it and its LBA size)
// and the controller's page size; nullopt where a part is missing or zero.
struct NvmeZnsSizes {
  std::optional<uint64_t> zone_bytes;             // ZSZE x LBA size
  std::optional<uint64_t> zone_descriptor_extension_bytes;  // ZDES x 64
  std::optional<uint64_t> zrwasz_bytes, zrwafg_bytes;
  std::optional<uint64_t> zasl_bytes;             // 2^ZASL x CAP.MPSMIN, nullopt when 0 (MDTS applies)
  std::optional<uint64_t> zsze;                   // ZSZE of the format in use
  std::optional<uint8_t> zdes;
};
NvmeZnsSizes derive_nvme_zns_sizes(const NvmeZnsIdNs* zns, const NvmeZnsIdCtrl* ctrl, const NvmeIdNs* ns,
                                   uint64_t memory_page_bytes = 4096);

}  // namespace ssdprobe
