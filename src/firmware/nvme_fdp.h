// Decoders for NVMe Flexible Data Placement (TP4146, in NVM Express Base 2.1):
// the four FDP log pages of an endurance group, the FDP feature and the
// controller's FDP support bit. Pure functions over raw buffers, every read
// bounds-checked (ByteReader); field names are the spec's in lower case. The
// layouts are libnvme's struct nvme_fdp_* (nvme/types.h), which
// nvme_admin.cc checks these offsets against at compile time.
//
//  20h FDP Configurations: a 16-byte header (NUMFDPC, 0's based; version;
//      LSIZE, the page's size in bytes) and NUMFDPC + 1 variable-size FDP
//      Configuration Descriptors (DSZE bytes each: FDPA, VSS, NRG, NRUH,
//      MAXPIDS (0's based), NNSS, RUNS (reclaim unit nominal size, bytes),
//      ERUTL (estimated reclaim unit time limit, seconds; 0: none), then NRUH
//      4-byte Reclaim Unit Handle Descriptors whose byte 0 is RUHT, then VSS
//      vendor bytes).
//  21h Reclaim Unit Handle Usage: NRUH, then one 8-byte descriptor per
//      handle whose byte 0 is RUHA (bit 0 host specified, bit 1 controller
//      specified; 0: unused).
//  22h FDP Statistics: HBMW, MBMW, MBE, 128-bit byte counters.
//  23h FDP Events (LSP bit 0 selects host events, else controller events):
//      NUMFDPE, then up to 63 64-byte events from byte 64.
// A page shorter than its header is rejected (nullopt); descriptors that run
// past the buffer or past the page's own stated size are dropped and the
// page is marked truncated, never read beyond.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "firmware/byte_reader.h"

namespace ssdprobe {

inline constexpr uint8_t kNvmeLogFdpConfigurations = 0x20;
inline constexpr uint8_t kNvmeLogFdpRuhUsage = 0x21;
inline constexpr uint8_t kNvmeLogFdpStatistics = 0x22;
inline constexpr uint8_t kNvmeLogFdpEvents = 0x23;
inline constexpr uint8_t kNvmeFeatureFdp = 0x1D;
inline constexpr uint32_t kNvmeCtrattFdps = 1u << 19;  // Identify Controller CTRATT bit 19

inline constexpr size_t kFdpConfigHeaderBytes = 16;
inline constexpr size_t kFdpConfigDescriptorBytes = 64;  // fixed part, before the RUH descriptors
inline constexpr size_t kFdpRuhDescriptorBytes = 4;
inline constexpr size_t kFdpRuhUsageHeaderBytes = 8;
inline constexpr size_t kFdpRuhUsageDescriptorBytes = 8;
inline constexpr size_t kFdpStatisticsBytes = 64;
inline constexpr size_t kFdpEventsHeaderBytes = 64;
inline constexpr size_t kFdpEventBytes = 64;
inline constexpr size_t kFdpEventsMax = 63;
inline constexpr size_t kFdpEventsLogBytes = kFdpEventsHeaderBytes + kFdpEventsMax * kFdpEventBytes;  // 4096

struct FdpConfiguration {
  uint16_t dsze = 0;     // descriptor size in bytes
  uint8_t fdpa = 0;      // FDP attributes: 3:0 RGIF, 4 FDPVWC, 7 FDPCV
  uint8_t vss = 0;       // vendor specific size in bytes
  uint32_t nrg = 0;      // number of reclaim groups
  uint16_t nruh = 0;     // number of reclaim unit handles
  uint16_t maxpids = 0;  // max placement identifiers, 0's based
  uint32_t nnss = 0;     // number of namespaces supported
  uint64_t runs = 0;     // reclaim unit nominal size, bytes
  uint32_t erutl = 0;    // estimated reclaim unit time limit, seconds (0: not reported)
  std::vector<uint8_t> ruht;  // reclaim unit handle type per handle (1 initially, 2 persistently isolated)

  uint8_t rgif() const { return fdpa & 0x0f; }  // reclaim group identifier format: bits of the placement handle
  bool fdpvwc() const { return (fdpa & 0x10) != 0; }  // FDP volatile write cache
  bool fdpcv() const { return (fdpa & 0x80) != 0; }   // configuration valid
};

struct FdpConfigurationsLog {
  uint16_t numfdpc = 0;  // 0's based
  uint8_t version = 0;
  uint32_t lsize = 0;    // the page's size in bytes, as the drive states it
  std::vector<FdpConfiguration> configs;
  bool truncated = false;  // fewer descriptors (or handles) than the header promised fitted
};

struct FdpRuhUsageLog {
  uint16_t nruh = 0;
  std::vector<uint8_t> ruha;  // per handle: bit 0 host specified, bit 1 controller specified, 0 unused
  bool truncated = false;
};

struct FdpStatistics {
  uint128 hbmw = 0;  // host bytes with metadata written
  uint128 mbmw = 0;  // media bytes with metadata written
  uint128 mbe = 0;   // media bytes erased
};

struct FdpEvent {
  uint8_t type = 0;     // see fdp_event_type_name
  uint8_t flags = 0;    // 0 PIV, 1 NSIDV, 2 LV
  uint16_t pid = 0;     // placement identifier (valid when PIV)
  uint64_t timestamp_ms = 0;  // 48-bit timestamp, milliseconds
  uint32_t nsid = 0;    // valid when NSIDV
  uint16_t rgid = 0;    // reclaim group (valid when LV)
  uint8_t ruhid = 0;    // reclaim unit handle (valid when LV)
  uint16_t nlbam = 0;   // Media Reallocated: number of LBAs moved
  std::optional<uint64_t> lba;  // Media Reallocated with LBAV set
};

struct FdpEventsLog {
  uint32_t numfdpe = 0;
  std::vector<FdpEvent> events;
  bool truncated = false;
};

// Get Features FDP (1Dh), completion dword 0.
struct FdpFeature {
  bool fdpe = false;      // FDP enabled in the endurance group
  uint8_t fdpcidx = 0;    // index of the configuration in use
};

// Everything read about FDP for one endurance group.
struct NvmeFdp {
  uint16_t endgid = 0;
  // How the endurance group was found: "namespace" (its ENDGID), "endurance
  // group list" (CNS 19h, the namespace reporting ENDGID 0) or "assumed 1"
  // (neither: group 1, as nvme-cli assumes).
  std::string endgid_source;
  std::optional<FdpFeature> feature;
  std::optional<FdpConfigurationsLog> configurations;
  std::optional<FdpRuhUsageLog> ruh_usage;
  std::optional<FdpStatistics> statistics;
  std::optional<FdpEventsLog> host_events, controller_events;

  // The configuration in use: the descriptor FDPCIDX names when FDP is
  // enabled and that descriptor was decoded; nullptr otherwise.
  const FdpConfiguration* active_configuration() const;
};

bool nvme_ctrl_supports_fdp(uint32_t ctratt);

std::optional<FdpConfigurationsLog> decode_fdp_configurations(std::span<const uint8_t> buffer);
std::optional<FdpRuhUsageLog> decode_fdp_ruh_usage(std::span<const uint8_t> buffer);
std::optional<FdpStatistics> decode_fdp_statistics(std::span<const uint8_t> buffer);
std::optional<FdpEventsLog> decode_fdp_events(std::span<const uint8_t> buffer);
FdpFeature decode_fdp_feature(uint32_t dword0);

// The size to read for a configurations or RUH usage page given its header
// (the first 16 or 8 bytes), capped at `cap`; nullopt for a short header.
std::optional<uint32_t> fdp_configurations_size(std::span<const uint8_t> header, uint32_t cap);
std::optional<uint32_t> fdp_ruh_usage_size(std::span<const uint8_t> header, uint32_t cap);

// Spec names: "Reclaim Unit Not Fully Written", ..., "vendor specific 0xNN".
std::string fdp_event_type_name(uint8_t type);
// "initially isolated", "persistently isolated", or "reserved 0xNN".
std::string fdp_ruh_type_name(uint8_t ruht);

}  // namespace ssdprobe
