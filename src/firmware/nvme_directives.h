// NVMe directives (Base 2.0, 8.7): which ones a namespace supports and has
// enabled (the Identify directive's Return Parameters) and the Streams
// directive's Return Parameters, whose stream write size (SWS) and stream
// granularity size (SGS) are the drive's own statement of its write unit and
// of the unit it allocates and erases streams in:
//  Identify (DTYPE 00h), 4096 B: byte 0 supported, byte 32 enabled; bit 0
//    Identify, bit 1 Streams, bit 2 Data Placement (Base 2.1).
//  Streams (DTYPE 01h), 32 B: MSL 1:0 (max streams of the subsystem), NSSA
//    3:2 (available to the NVM subsystem), NSSO 5:4 (open in it), NSSC 6
//    (bit 0: stream counts are per subsystem), SWS 19:16 (logical blocks,
//    0: not reported), SGS 21:20 (in units of SWS, 0: not reported), NSA
//    23:22 (allocated to this namespace), NSO 25:24 (open in it).
// Pure decoders over raw buffers, every read bounds-checked (ByteReader).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace ssdprobe {

inline constexpr uint8_t kNvmeDirectiveIdentify = 0x00;
inline constexpr uint8_t kNvmeDirectiveStreams = 0x01;
inline constexpr uint16_t kNvmeOacsDirectives = 1u << 5;  // Identify Controller OACS bit 5
inline constexpr size_t kNvmeDirectiveIdentifyBytes = 4096;
inline constexpr size_t kNvmeStreamsParamsBytes = 32;

struct NvmeDirectiveSupport {
  uint8_t supported = 0, enabled = 0;  // bit 0 Identify, 1 Streams, 2 Data Placement
  bool streams_supported() const { return (supported & 0x02) != 0; }
  bool streams_enabled() const { return (enabled & 0x02) != 0; }
};

struct NvmeStreamsParams {
  uint16_t msl = 0, nssa = 0, nsso = 0;
  uint8_t nssc = 0;
  uint32_t sws = 0;  // logical blocks
  uint16_t sgs = 0;  // units of SWS
  uint16_t nsa = 0, nso = 0;
};

// What a namespace's directives say: `support` when the Identify directive
// answered, `streams` when Streams is supported and its parameters answered.
struct NvmeDirectives {
  std::optional<NvmeDirectiveSupport> support;
  std::optional<NvmeStreamsParams> streams;
};

// nullopt when the buffer is too short for the fields (64 B; 26 B).
std::optional<NvmeDirectiveSupport> decode_directive_support(std::span<const uint8_t> buffer);
std::optional<NvmeStreamsParams> decode_streams_params(std::span<const uint8_t> buffer);

// SWS and SWS × SGS in bytes for logical blocks of `lba_bytes`; nullopt
// where a field is 0 (not reported) or the product overflows.
std::optional<uint64_t> stream_write_size_bytes(const NvmeStreamsParams& p, uint64_t lba_bytes);
std::optional<uint64_t> stream_granularity_bytes(const NvmeStreamsParams& p, uint64_t lba_bytes);

}  // namespace ssdprobe
