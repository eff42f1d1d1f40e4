#include "firmware/nvme_fdp.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdprobe {

namespace {

constexpr uint8_t kEventMediaReallocated = 0x80;
constexpr uint8_t kReallocLbaValid = 0x01;

// One descriptor at `at`; false when it does not fit in the page (`end`).
bool decode_configuration(const ByteReader& r, size_t at, size_t end, FdpConfiguration& c) {
  c.dsze = r.le16(at);
  if (c.dsze < kFdpConfigDescriptorBytes || at + c.dsze > end || !r.has(at, c.dsze)) return false;
  c.fdpa = r.u8(at + 2);
  c.vss = r.u8(at + 3);
  c.nrg = r.le32(at + 4);
  c.nruh = r.le16(at + 8);
  c.maxpids = r.le16(at + 10);
  c.nnss = r.le32(at + 12);
  c.runs = r.le64(at + 16);
  c.erutl = r.le32(at + 24);
  return true;
}

// The handle descriptors that fit inside the descriptor's DSZE (which also
// holds VSS vendor bytes after them); false if not all NRUH fitted.
bool decode_handle_types(const ByteReader& r, size_t at, FdpConfiguration& c) {
  const size_t room = c.dsze - kFdpConfigDescriptorBytes;
  const size_t fit = std::min<size_t>(c.nruh, room / kFdpRuhDescriptorBytes);
  c.ruht.reserve(fit);
  for (size_t i = 0; i < fit; ++i) c.ruht.push_back(r.u8(at + kFdpConfigDescriptorBytes + i * kFdpRuhDescriptorBytes));
  return fit == c.nruh;
}

FdpEvent decode_event(const ByteReader& r, size_t at) {
  FdpEvent e;
  e.type = r.u8(at);
  e.flags = r.u8(at + 1);
  e.pid = r.le16(at + 2);
  e.timestamp_ms = r.le(at + 4, 6);
  e.nsid = r.le32(at + 12);
  e.rgid = r.le16(at + 32);
  e.ruhid = r.u8(at + 34);
  if (e.type == kEventMediaReallocated) {
    e.nlbam = r.le16(at + 18);
    if ((r.u8(at + 16) & kReallocLbaValid) != 0) e.lba = r.le64(at + 20);
  }
  return e;
}

}  // namespace

bool nvme_ctrl_supports_fdp(uint32_t ctratt) { return (ctratt & kNvmeCtrattFdps) != 0; }

const FdpConfiguration* NvmeFdp::active_configuration() const {
  if (!feature || !feature->fdpe || !configurations) return nullptr;
  const auto& configs = configurations->configs;
  return feature->fdpcidx < configs.size() ? &configs[feature->fdpcidx] : nullptr;
}

std::optional<FdpConfigurationsLog> decode_fdp_configurations(std::span<const uint8_t> buffer) {
  if (buffer.size() < kFdpConfigHeaderBytes) return std::nullopt;
  const ByteReader r(buffer);
  FdpConfigurationsLog log;
  log.numfdpc = r.le16(0);
  log.version = r.u8(2);
  log.lsize = r.le32(4);
  const size_t end = std::min<size_t>(buffer.size(), log.lsize);
  size_t at = kFdpConfigHeaderBytes;
  for (size_t i = 0; i <= log.numfdpc; ++i) {
    FdpConfiguration c;
    if (!decode_configuration(r, at, end, c)) {
      log.truncated = true;
      break;
    }
    if (!decode_handle_types(r, at, c)) log.truncated = true;
    at += c.dsze;
    log.configs.push_back(std::move(c));
  }
  return log;
}

std::optional<FdpRuhUsageLog> decode_fdp_ruh_usage(std::span<const uint8_t> buffer) {
  if (buffer.size() < kFdpRuhUsageHeaderBytes) return std::nullopt;
  const ByteReader r(buffer);
  FdpRuhUsageLog log;
  log.nruh = r.le16(0);
  const size_t fit = (buffer.size() - kFdpRuhUsageHeaderBytes) / kFdpRuhUsageDescriptorBytes;
  const size_t count = std::min<size_t>(log.nruh, fit);
  log.truncated = count < log.nruh;
  log.ruha.reserve(count);
  for (size_t i = 0; i < count; ++i) log.ruha.push_back(r.u8(kFdpRuhUsageHeaderBytes + i * kFdpRuhUsageDescriptorBytes));
  return log;
}

std::optional<FdpStatistics> decode_fdp_statistics(std::span<const uint8_t> buffer) {
  if (buffer.size() < kFdpStatisticsBytes) return std::nullopt;
  const ByteReader r(buffer);
  return FdpStatistics{.hbmw = r.le128(0), .mbmw = r.le128(16), .mbe = r.le128(32)};
}

std::optional<FdpEventsLog> decode_fdp_events(std::span<const uint8_t> buffer) {
  if (buffer.size() < kFdpEventsHeaderBytes) return std::nullopt;
  const ByteReader r(buffer);
  FdpEventsLog log;
  log.numfdpe = r.le32(0);
  const size_t fit = (buffer.size() - kFdpEventsHeaderBytes) / kFdpEventBytes;
  const size_t count = std::min({static_cast<size_t>(log.numfdpe), fit, kFdpEventsMax});
  log.truncated = count < log.numfdpe;
  for (size_t i = 0; i < count; ++i) log.events.push_back(decode_event(r, kFdpEventsHeaderBytes + i * kFdpEventBytes));
  return log;
}

FdpFeature decode_fdp_feature(uint32_t dword0) {
  return FdpFeature{.fdpe = (dword0 & 0x1) != 0, .fdpcidx = static_cast<uint8_t>(dword0 >> 8)};
}

std::optional<uint32_t> fdp_configurations_size(std::span<const uint8_t> header, uint32_t cap) {
  if (header.size() < kFdpConfigHeaderBytes) return std::nullopt;
  const uint32_t lsize = ByteReader(header).le32(4);
  return std::clamp<uint32_t>(lsize, kFdpConfigHeaderBytes, cap);
}

std::optional<uint32_t> fdp_ruh_usage_size(std::span<const uint8_t> header, uint32_t cap) {
  if (header.size() < kFdpRuhUsageHeaderBytes) return std::nullopt;
  const uint64_t size = kFdpRuhUsageHeaderBytes + uint64_t{ByteReader(header).le16(0)} * kFdpRuhUsageDescriptorBytes;
  return static_cast<uint32_t>(std::min<uint64_t>(size, cap));
}

std::string fdp_event_type_name(uint8_t type) {
  switch (type) {
    case 0x00: return "Reclaim Unit Not Fully Written";
    case 0x01: return "Reclaim Unit Time Limit Exceeded";
    case 0x02: return "Controller Level Reset Modified Reclaim Unit Handles";
    case 0x03: return "Invalid Placement Identifier";
    case 0x80: return "Media Reallocated";
    case 0x81: return "Implicitly Modified Reclaim Unit Handle";
    default: break;
  }
  const bool vendor = (type >= 0x70 && type <= 0x7F) || type >= 0xF0;
  return fmt::format("{} 0x{:02x}", vendor ? "vendor specific" : "reserved", type);
}

std::string fdp_ruh_type_name(uint8_t ruht) {
  if (ruht == 1) return "initially isolated";
  if (ruht == 2) return "persistently isolated";
  return fmt::format("reserved 0x{:02x}", ruht);
}

}  // namespace ssdprobe
