// LVM2 labels, metadata areas and VG metadata text from untrusted bytes
// (layout/lvm_label.h, layout/lvm_config.h). None of them may throw, so any
// exception is a finding. Byte 0 chooses what the rest is:
//   0  a PV's first bytes: decode_lvm_label, and lvm_metadata_text on them
//   1  a label sector: the harness writes LABELONE/LVM2 001, sector_xl and
//      the CRC into sector (byte 1 % 4) so the fuzzer reaches the pv_header
//   2  a metadata area: the harness repairs raw_locn 0's text CRC and the
//      header CRC so the fuzzer reaches the circular buffer
//   3  VG metadata text for apply_lvm_metadata (this PV is AAAA...A)
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "layout/lvm_config.h"
#include "layout/lvm_label.h"

using namespace ssdprobe;

namespace {

uint64_t le(const std::vector<uint8_t>& bytes, size_t offset, int length) {
  uint64_t value = 0;
  for (int i = length - 1; i >= 0; --i) value = (value << 8) | bytes[offset + i];
  return value;
}
void put_le(std::vector<uint8_t>& bytes, size_t offset, uint64_t value, int length) {
  for (int i = 0; i < length; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

void check_pv(const LvmPhysicalVolume& pv) {
  if (pv.segments.empty()) return;
  FUZZ_CHECK(!pv.vg_name.empty() && pv.extent_bytes && *pv.extent_bytes >= 512);
  for (size_t i = 0; i < pv.segments.size(); ++i) {
    const auto& s = pv.segments[i];
    FUZZ_CHECK(s.stripes >= 1 && s.stripes <= 128 && s.extent_count >= 1);
    FUZZ_CHECK((s.stripes == 1) == (s.stripe_bytes == 0));
    // Extent offsets in bytes stay representable.
    FUZZ_CHECK(s.pv_start_extent + s.extent_count <= (uint64_t{1} << 62) / *pv.extent_bytes);
    FUZZ_CHECK(s.lv_start_extent + s.extent_count * s.stripes <= (uint64_t{1} << 62) / *pv.extent_bytes);
    if (i > 0) FUZZ_CHECK(pv.segments[i - 1].pv_start_extent <= s.pv_start_extent);
  }
}

void apply_text(const std::string& text, LvmPhysicalVolume pv) {
  const auto notes = apply_lvm_metadata(text, pv);
  fuzz::keep(notes);
  check_pv(pv);
  const auto parsed = parse_lvm_config(text);
  FUZZ_CHECK(parsed.root.has_value() == parsed.error.empty());
}

void metadata_of(std::span<const uint8_t> area, const LvmPhysicalVolume& pv) {
  const auto text = lvm_metadata_text(area);
  if (!text) return;
  FUZZ_CHECK(!text->empty() && text->find('\0') == std::string::npos);
  apply_text(*text, pv);
}

void label_of(std::span<const uint8_t> head) {
  const auto label = decode_lvm_label(head);
  if (!label) return;
  FUZZ_CHECK(label->pv.pv_uuid.size() == 32);
  FUZZ_CHECK(label->pv.label_offset_bytes % 512 == 0 && label->pv.label_offset_bytes < 2048);
  FUZZ_CHECK(label->pv.pe_start_bytes % 512 == 0 && label->pv.pe_start_bytes > label->pv.label_offset_bytes);
  for (const auto& [offset, size] : label->metadata_areas) {
    FUZZ_CHECK(offset % 512 == 0 && size >= 1024 && offset + size >= offset);
    if (offset < head.size()) metadata_of(head.subspan(offset), label->pv);
  }
}

void repaired_label(std::vector<uint8_t> head, size_t sector) {
  head.resize(std::max<size_t>(head.size(), 2048), 0);
  const size_t at = sector * 512;
  std::memcpy(&head[at], "LABELONE", 8);
  put_le(head, at + 8, sector, 8);
  std::memcpy(&head[at + 24], "LVM2 001", 8);
  put_le(head, at + 16, lvm_crc(kLvmInitialCrc, std::span(head).subspan(at + 20, 492)), 4);
  label_of(head);
}

// The text CRC of raw_locn 0 (as lvm_metadata_text reads it, when its
// location is in range), then the header CRC over bytes 4..511.
void repaired_area(std::vector<uint8_t> area, const LvmPhysicalVolume& pv) {
  if (area.size() < 512) return;
  const uint64_t area_size = le(area, 32, 8);
  const uint64_t offset = le(area, 40, 8);
  const uint64_t size = le(area, 48, 8);
  if (area_size >= 1024 && offset >= 512 && offset < area_size && size > 0 && size <= area_size - 512) {
    const uint64_t first = std::min(size, area_size - offset);
    const uint64_t wrap = size - first;
    if (offset + first <= area.size() && 512 + wrap <= area.size()) {
      const auto head = std::span(area).subspan(offset, first);
      const auto tail = std::span(area).subspan(512, wrap);
      put_le(area, 56, lvm_crc(lvm_crc(kLvmInitialCrc, head), tail), 4);
    }
  }
  put_le(area, 0, lvm_crc(kLvmInitialCrc, std::span(area).subspan(4, 508)), 4);
  metadata_of(area, pv);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  LvmPhysicalVolume pv;
  pv.pv_uuid = std::string(32, 'A');
  pv.pe_start_bytes = 1 << 20;
  const std::vector<uint8_t> rest(data + 1, data + size);
  switch (data[0] % 4) {
    case 0:
      label_of(rest);
      metadata_of(rest, pv);
      break;
    case 1: repaired_label(std::vector<uint8_t>(rest.begin() + 1, rest.end()), rest[0] % 4); break;
    case 2: repaired_area(rest, pv); break;
    case 3: apply_text(std::string(rest.begin(), rest.end()), pv); break;
  }
  return 0;
}
