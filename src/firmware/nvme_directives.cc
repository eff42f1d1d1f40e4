#include "firmware/nvme_directives.h"

#include "firmware/byte_reader.h"
#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {
constexpr size_t kEnabledOffset = 32;
constexpr size_t kStreamsFieldsEnd = 26;  // through NSO
}  // namespace

std::optional<NvmeDirectiveSupport> decode_directive_support(std::span<const uint8_t> buffer) {
  const ByteReader r(buffer);
  if (!r.has(kEnabledOffset, 32)) return std::nullopt;
  return NvmeDirectiveSupport{.supported = r.u8(0), .enabled = r.u8(kEnabledOffset)};
}

std::optional<NvmeStreamsParams> decode_streams_params(std::span<const uint8_t> buffer) {
  const ByteReader r(buffer);
  if (!r.has(0, kStreamsFieldsEnd)) return std::nullopt;
  return NvmeStreamsParams{.msl = r.le16(0),
                           .nssa = r.le16(2),
                           .nsso = r.le16(4),
                           .nssc = r.u8(6),
                           .sws = r.le32(16),
                           .sgs = r.le16(20),
                           .nsa = r.le16(22),
                           .nso = r.le16(24)};
}

std::optional<uint64_t> stream_write_size_bytes(const NvmeStreamsParams& p, uint64_t lba_bytes) {
  if (p.sws == 0 || lba_bytes == 0) return std::nullopt;
  return checked_mul(p.sws, lba_bytes);
}

std::optional<uint64_t> stream_granularity_bytes(const NvmeStreamsParams& p, uint64_t lba_bytes) {
  const auto write_size = stream_write_size_bytes(p, lba_bytes);
  if (!write_size || p.sgs == 0) return std::nullopt;
  return checked_mul(*write_size, p.sgs);
}

}  // namespace ssdprobe
