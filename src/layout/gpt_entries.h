// The GPT entries libblkid leaves out of its list, read by hand from the
// header libblkid used (blkid_probe.cc calls this after libblkid accepted
// the table). libblkid skips an entry with any part outside the header's
// usable sectors without a word, and lists one whose last sector comes
// before its first with a size that wraps around; the kernel still makes
// partitions of those that end on the disk. The audit names them all.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

struct GptEntryRecord {
  int number = 0;              // 1-based slot in the entry array
  uint64_t first_lba = 0;      // as written, in the table's sectors
  uint64_t last_lba = 0;       // inclusive, as written (may be below first_lba)
  std::string type;            // type GUID, lower case, as libblkid writes it
};

struct GptEntries {
  uint64_t first_usable_lba = 0;
  uint64_t last_usable_lba = 0;
  std::vector<GptEntryRecord> unlisted;   // used entries whose number is not in `listed`, in slot order
};

// The header at byte `header_offset` of `fd` (its LBAs count from
// `area_offset`, the table's own disk) and its entry array. `listed`: the
// numbers libblkid listed. Nullopt when the header or the array does not
// check out (signature, sizes, CRCs: the disk changed since libblkid read
// it) or the array is larger than `max_array_bytes`.
std::optional<GptEntries> read_unlisted_gpt_entries(int fd, uint64_t area_offset, uint64_t header_offset,
                                                    uint32_t logical_block, std::span<const int> listed,
                                                    uint64_t max_array_bytes);

// Adds what `entries` says to `table` (whose other entries libblkid
// listed): its usable sectors, each unlisted entry that is a place (in
// number order among the others), and each that is not to `impossible`.
// `disk_offset`: where the table's disk starts on the descriptor.
void add_unlisted_gpt_entries(PartitionTable& table, const GptEntries& entries, uint64_t disk_offset);

// "0fc63daf-8483-4772-8e79-3d69d8477de4" from the 16 bytes of a GUID as a
// GPT stores it (the first three fields little-endian).
std::string gpt_guid_text(std::span<const uint8_t, 16> bytes);

}  // namespace ssdprobe
