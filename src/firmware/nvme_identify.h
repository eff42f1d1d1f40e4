// Decoders for the NVMe Identify data structures ssdprobe uses, from the raw
// 4096-byte buffers the controller returns (NVM Express Base 2.0 / NVM Command
// Set 1.0 offsets; field names are the spec's, in lower case). Pure functions:
// no IO, no libnvme. A buffer shorter than the structure is rejected
// (nullopt); longer buffers are fine (only the first 4096 bytes are read).
// Every read is bounds-checked (ByteReader), so garbage never reads past the
// buffer; it decodes to garbage values, which the callers treat as reported.
//
// Encodings worth remembering (the decoders keep raw values; derived sizes in
// bytes come from derive_nvme_sizes()):
//  - NPWG, NPWA, NPDG, NPDA, NOWS, NAWUN, NAWUPF, NACWU and the controller's
//    AWUN, AWUPF, ACWU are 0's based counts of logical blocks.
//  - NABSN and NABSPF are 0's based too, but 0 means "no atomic boundary".
//  - NOIOB and NABO are plain counts of logical blocks (0: none reported).
//  - MDTS is a power of two in units of CAP.MPSMIN (0: no limit).
//  - NSFEAT bit 4 (OPTPERF; bits 5:4 since NVMe 2.1) says NPWG..NOWS are
//    valid; bit 1 (NSABP) says NAWUN, NAWUPF, NACWU are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "firmware/byte_reader.h"

namespace ssdprobe {

inline constexpr size_t kNvmeIdentifyBytes = 4096;

// Identify Controller (CNS 01h).
struct NvmeIdCtrl {
  uint16_t vid = 0, ssvid = 0;
  std::string sn, mn, fr;       // serial, model, firmware revision, trimmed
  uint8_t rab = 0;
  uint32_t ieee = 0;            // IEEE OUI, 24 bits
  uint8_t cmic = 0;
  uint8_t mdts = 0;
  uint16_t cntlid = 0;
  uint32_t ver = 0;             // major << 16 | minor << 8 | tertiary
  uint32_t ctratt = 0;
  uint8_t cntrltype = 0;
  uint16_t oacs = 0;
  uint8_t frmw = 0, lpa = 0;
  uint16_t wctemp = 0, cctemp = 0;
  uint128 tnvmcap = 0, unvmcap = 0;
  uint16_t endgidmax = 0;       // highest endurance group identifier (0: not reported)
  uint8_t sqes = 0, cqes = 0;
  uint32_t nn = 0;
  uint16_t oncs = 0, fuses = 0;
  uint8_t fna = 0, vwc = 0;
  uint16_t awun = 0, awupf = 0;
  uint8_t nvscc = 0, nwpc = 0;
  uint16_t acwu = 0;
  uint32_t sgls = 0;
  uint32_t mnan = 0;
  std::string subnqn;

  // FNA bit 0 (Format All Namespaces): a Format NVM of one namespace, other
  // than a secure erase, formats every namespace of the NVM subsystem.
  bool format_applies_to_all_namespaces() const { return (fna & 0x01) != 0; }
};

// One entry of the LBA Format list (Identify Namespace bytes 128..383).
struct NvmeLbaFormat {
  uint16_t ms = 0;  // metadata bytes per LBA
  uint8_t ds = 0;   // LBA data size, log2 bytes (valid formats have ds >= 9)
  uint8_t rp = 0;   // relative performance, 0 best .. 3 degraded
};

// Identify Namespace (CNS 00h).
struct NvmeIdNs {
  uint64_t nsze = 0, ncap = 0, nuse = 0;
  uint8_t nsfeat = 0, nlbaf = 0, flbas = 0, mc = 0, dpc = 0, dps = 0;
  uint8_t nmic = 0, rescap = 0, fpi = 0, dlfeat = 0;
  uint16_t nawun = 0, nawupf = 0, nacwu = 0, nabsn = 0, nabo = 0, nabspf = 0, noiob = 0;
  uint128 nvmcap = 0;
  uint16_t npwg = 0, npwa = 0, npdg = 0, npda = 0, nows = 0;
  uint16_t mssrl = 0;
  uint32_t mcl = 0;
  uint8_t msrc = 0, nulbaf = 0;
  uint32_t anagrpid = 0;
  uint8_t nsattr = 0;
  uint16_t nvmsetid = 0, endgid = 0;
  std::string nguid, eui64;         // lower-case hex
  std::vector<NvmeLbaFormat> lbaf;  // NLBAF+1+NULBAF entries (at most 64)

  // Index of the format in use: FLBAS bits 3:0, with bits 6:5 as bits 5:4.
  unsigned lbaf_in_use() const { return (flbas & 0x0fu) | ((flbas & 0x60u) >> 1); }
  // 2^ds of the format in use; nullopt if the index is outside the list or
  // ds is not a sensible LBA size (9..31).
  std::optional<uint64_t> lba_bytes() const;
  bool optperf() const { return (nsfeat & 0x30) != 0; }  // NPWG..NOWS valid
  bool nsabp() const { return (nsfeat & 0x02) != 0; }    // NAWUN/NAWUPF/NACWU valid
};

// I/O Command Set Specific Identify Namespace for the NVM command set
// (CNS 05h, CSI 00h). Fields past ELBAF are from NVMe 2.1 (libnvme newer
// than 1.3 names them); older drives return zeros there.
struct NvmeNvmIdNs {
  uint64_t lbstm = 0;
  uint8_t pic = 0, pifa = 0;
  uint32_t npdgl = 0;  // bytes 271:268
  uint32_t nprg = 0;   // bytes 275:272
  uint32_t npra = 0;   // bytes 279:276
  uint32_t nors = 0;   // bytes 283:280
  uint32_t npdal = 0;  // bytes 287:284
};

std::optional<NvmeIdCtrl> decode_nvme_id_ctrl(std::span<const uint8_t> buffer);

// Identify CNS 19h, the Endurance Group List: NID (bytes 1:0), then NID
// 2-byte identifiers. At most 2047 fit a page; entries past the buffer are
// dropped. nullopt for a buffer without the count.
inline constexpr size_t kNvmeEnduranceGroupListMax = 2047;
std::optional<std::vector<uint16_t>> decode_nvme_endurance_group_list(std::span<const uint8_t> buffer);
std::optional<NvmeIdNs> decode_nvme_id_ns(std::span<const uint8_t> buffer);
std::optional<NvmeNvmIdNs> decode_nvme_nvm_id_ns(std::span<const uint8_t> buffer);

// "1.4.0" from VER; "" when VER is 0 (NVMe 1.0 controllers may report 0).
std::string nvme_version_string(uint32_t ver);

// Sizes in bytes derived from Identify fields, nullopt where the field is not
// valid or not reported (see the encodings above). `memory_page_bytes` is
// CAP.MPSMIN as bytes (4096 unless known otherwise); it only scales MDTS.
struct NvmeDerivedSizes {
  std::optional<uint64_t> lba_bytes, nsze_bytes, ncap_bytes, nuse_bytes;
  std::optional<uint64_t> npwg_bytes, npwa_bytes, npdg_bytes, npda_bytes, nows_bytes;
  std::optional<uint64_t> nawun_bytes, nawupf_bytes, nacwu_bytes;
  std::optional<uint64_t> nabsn_bytes, nabo_bytes, nabspf_bytes, noiob_bytes;
  std::optional<uint64_t> awun_bytes, awupf_bytes, acwu_bytes, mdts_bytes;
  std::optional<uint64_t> npdgl_bytes, npdal_bytes;
};

// Any pointer may be null; sizes that need it are then nullopt.
NvmeDerivedSizes derive_nvme_sizes(const NvmeIdCtrl* ctrl, const NvmeIdNs* ns, const NvmeNvmIdNs* nvm,
                                   uint64_t memory_page_bytes = 4096);

}  // namespace ssdprobe
