// The bytes ssdprobe's write probes put on a device, recognisable later.
//
// Every 512-byte sector of a write payload starts with the same 16-byte
// tag (the rest is pseudo-random, so a compressing or deduplicating
// controller sees incompressible data: the tag is 3 % of it). `ssdprobe
// restore` reads a journal's window before writing it back: a sector that is
// neither the journal's saved content nor tagged was written by someone else
// since the crash (the disk was reused), and the restore refuses without
// --force instead of overwriting it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace ssdprobe {

inline constexpr size_t kProbeSectorBytes = 512;
inline constexpr char kProbeDataTag[16] = {'s', 's', 'd', 'p', 'r', 'o', 'b', 'e', '-', 't',
                                           'e', 's', 't', '-', 'i', 'o'};

// Stamps the tag at the start of every whole 512-byte sector of `payload`.
inline void stamp_probe_tag(std::span<std::byte> payload) {
  for (size_t at = 0; at + kProbeSectorBytes <= payload.size(); at += kProbeSectorBytes) {
    std::memcpy(payload.data() + at, kProbeDataTag, sizeof kProbeDataTag);
  }
}

// Does this sector (at least 16 bytes) start with the tag?
inline bool has_probe_tag(std::span<const std::byte> sector) {
  return sector.size() >= sizeof kProbeDataTag && std::memcmp(sector.data(), kProbeDataTag, sizeof kProbeDataTag) == 0;
}

}  // namespace ssdprobe
