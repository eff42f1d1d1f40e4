#include "layout/gpt_entries.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/pread_exactly.h"
#include "firmware/byte_reader.h"
#include "firmware/checked_math.h"
#include "layout/lvm_label.h"

namespace ssdprobe {
namespace {

// UEFI 2.10 5.3.2 (header) and 5.3.3 (entry).
constexpr size_t kHeaderMinBytes = 92;
constexpr size_t kHeaderBytesField = 12, kHeaderCrcField = 16, kMyLba = 24, kFirstUsable = 40, kLastUsable = 48;
constexpr size_t kEntriesLba = 72, kEntryCount = 80, kEntryBytesField = 84, kEntriesCrc = 88;
constexpr uint32_t kEntryBytes = 128;
constexpr size_t kEntryFirstLba = 32, kEntryLastLba = 40;

// UEFI's CRC-32 (lvm2's CRC is the same register without the inversions).
uint32_t uefi_crc(std::span<const uint8_t> bytes) { return ~lvm_crc(0xffffffffu, bytes); }

bool header_checks_out(std::vector<uint8_t> h, uint64_t lba) {
  const ByteReader r(h);
  const uint32_t header_bytes = r.le32(kHeaderBytesField);
  if (std::memcmp(h.data(), "EFI PART", 8) != 0 || header_bytes < kHeaderMinBytes || header_bytes > h.size() ||
      r.le64(kMyLba) != lba) {
    return false;
  }
  const uint32_t stored = r.le32(kHeaderCrcField);
  std::fill_n(h.begin() + kHeaderCrcField, 4, 0);
  return uefi_crc(std::span(h).first(header_bytes)) == stored;
}

}  // namespace

std::string gpt_guid_text(std::span<const uint8_t, 16> g) {
  return fmt::format("{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-"
                     "{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                     g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14],
                     g[15]);
}

std::optional<GptEntries> read_unlisted_gpt_entries(int fd, uint64_t area_offset, uint64_t header_offset,
                                                    uint32_t logical_block, std::span<const int> listed,
                                                    uint64_t max_array_bytes) {
  if (header_offset < area_offset || logical_block == 0) return std::nullopt;
  std::vector<uint8_t> header(logical_block);
  if (!pread_exactly(fd, header, header_offset)) return std::nullopt;
  if (!header_checks_out(header, (header_offset - area_offset) / logical_block)) return std::nullopt;
  const ByteReader h(header);
  const uint64_t array_bytes = uint64_t{h.le32(kEntryCount)} * h.le32(kEntryBytesField);
  const auto array_at = checked_mul(h.le64(kEntriesLba), logical_block);
  if (h.le32(kEntryBytesField) != kEntryBytes || array_bytes == 0 || array_bytes > max_array_bytes || !array_at ||
      *array_at > UINT64_MAX - area_offset - array_bytes) {
    return std::nullopt;
  }
  std::vector<uint8_t> array(array_bytes);
  if (!pread_exactly(fd, array, area_offset + *array_at) || uefi_crc(array) != h.le32(kEntriesCrc)) return std::nullopt;

  GptEntries entries;
  entries.first_usable_lba = h.le64(kFirstUsable);
  entries.last_usable_lba = h.le64(kLastUsable);
  std::vector<int> known(listed.begin(), listed.end());
  std::sort(known.begin(), known.end());
  for (size_t i = 0; i < array.size() / kEntryBytes; ++i) {
    const auto entry = std::span(array).subspan(i * kEntryBytes, kEntryBytes);
    const auto type = entry.first<16>();
    if (std::all_of(type.begin(), type.end(), [](uint8_t b) { return b == 0; })) continue;  // an unused slot
    const int number = static_cast<int>(i + 1);
    if (std::binary_search(known.begin(), known.end(), number)) continue;
    const ByteReader e(entry);
    entries.unlisted.push_back({number, e.le64(kEntryFirstLba), e.le64(kEntryLastLba), gpt_guid_text(type)});
  }
  return entries;
}

void add_unlisted_gpt_entries(PartitionTable& table, const GptEntries& entries, uint64_t disk_offset) {
  const uint32_t sector = table.sector_bytes;
  const auto byte_at = [&](uint64_t lba) -> std::optional<uint64_t> {
    const auto bytes = checked_mul(lba, sector);
    if (!bytes || *bytes > UINT64_MAX - disk_offset) return std::nullopt;
    return disk_offset + *bytes;
  };
  table.usable_start_bytes = byte_at(entries.first_usable_lba);
  table.usable_end_bytes = entries.last_usable_lba < UINT64_MAX ? byte_at(entries.last_usable_lba + 1) : std::nullopt;
  for (const auto& record : entries.unlisted) {
    const auto start = byte_at(record.first_lba);
    const auto end = record.last_lba < UINT64_MAX ? byte_at(record.last_lba + 1) : std::nullopt;
    if (!start || !end || *end <= *start) {
      table.impossible.push_back({record.number, record.first_lba, record.last_lba});
      continue;
    }
    // libblkid names the entries it lists; one it skipped is known by its number.
    table.partitions.push_back({record.number, *start, *end - *start, record.type, "", false});
  }
  std::stable_sort(table.partitions.begin(), table.partitions.end(),
                   [](const PartitionEntry& a, const PartitionEntry& b) { return a.number < b.number; });
}

}  // namespace ssdprobe
