#include "firmware/nvme_zns.h"

#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {

constexpr size_t kLbafeOffset = 2816;  // LBA Format Extension list
constexpr size_t kLbafeBytes = 16;
constexpr size_t kLbafeCount = 64;
constexpr uint64_t kZdesUnitBytes = 64;

void decode_limits(const ByteReader& r, NvmeZnsIdNs& z) {
  z.zoc = r.le16(0);
  z.ozcs = r.le16(2);
  z.mar = r.le32(4);
  z.mor = r.le32(8);
  z.rrl = r.le32(12);
  z.frl = r.le32(16);
  z.rrl1 = r.le32(20);
  z.rrl2 = r.le32(24);
  z.rrl3 = r.le32(28);
  z.frl1 = r.le32(32);
  z.frl2 = r.le32(36);
  z.frl3 = r.le32(40);
}

void decode_zrwa(const ByteReader& r, NvmeZnsIdNs& z) {
  z.numzrwa = r.le32(44);
  z.zrwafg = r.le16(48);
  z.zrwasz = r.le16(50);
  z.zrwacap = r.u8(52);
}

void decode_lba_format_extensions(const ByteReader& r, NvmeZnsIdNs& z) {
  z.lbafe.reserve(kLbafeCount);
  for (size_t i = 0; i < kLbafeCount; ++i) {
    const size_t at = kLbafeOffset + i * kLbafeBytes;
    z.lbafe.push_back({r.le64(at), r.u8(at + 8)});
  }
}

// A 0's based count with an all-ones "no limit" value.
std::optional<uint64_t> zero_based_limit(uint32_t value) {
  if (value == kZnsNoLimit) return std::nullopt;
  return static_cast<uint64_t>(value) + 1;
}

std::optional<uint64_t> times_lba(uint64_t count, std::optional<uint64_t> lba_bytes) {
  if (!lba_bytes || count == 0) return std::nullopt;
  return checked_mul(count, *lba_bytes);
}

}  // namespace

std::optional<uint64_t> NvmeZnsIdNs::max_active_zones() const { return zero_based_limit(mar); }
std::optional<uint64_t> NvmeZnsIdNs::max_open_zones() const { return zero_based_limit(mor); }

std::optional<NvmeZnsIdNs> decode_nvme_zns_id_ns(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeIdentifyBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeIdentifyBytes));
  NvmeZnsIdNs z;
  decode_limits(r, z);
  decode_zrwa(r, z);
  decode_lba_format_extensions(r, z);
  return z;
}

std::optional<NvmeZnsIdCtrl> decode_nvme_zns_id_ctrl(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeIdentifyBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeIdentifyBytes));
  return NvmeZnsIdCtrl{r.u8(0)};
}

NvmeZnsSizes derive_nvme_zns_sizes(const NvmeZnsIdNs* zns, const NvmeZnsIdCtrl* ctrl, const NvmeIdNs* ns,
                                   uint64_t memory_page_bytes) {
  NvmeZnsSizes s;
  if (ctrl && ctrl->zasl != 0 && ctrl->zasl < 64) s.zasl_bytes = checked_mul(uint64_t{1} << ctrl->zasl, memory_page_bytes);
  if (!zns || !ns) return s;
  const auto lba_bytes = ns->lba_bytes();
  const unsigned format = ns->lbaf_in_use();
  if (format < zns->lbafe.size()) {
    s.zsze = zns->lbafe[format].zsze;
    s.zdes = zns->lbafe[format].zdes;
    s.zone_bytes = times_lba(*s.zsze, lba_bytes);
    s.zone_descriptor_extension_bytes = *s.zdes * kZdesUnitBytes;
  }
  if (zns->zrwasup()) {
    s.zrwasz_bytes = times_lba(zns->zrwasz, lba_bytes);
    s.zrwafg_bytes = times_lba(zns->zrwafg, lba_bytes);
  }
  return s;
}

}  // namespace ssdprobe
