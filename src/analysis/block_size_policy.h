// The one block-size policy: from the units a run found, the sizes a drive
// should be addressed in. The verdict, the recommendations and their
// block-size advice, the HTML report and compare's quirk table all read it,
// so one document never gets two answers.
//
//   unit            the unit an IO smaller than which costs a whole one: the
//                   write unit when it is above 4 KiB (what partial writes
//                   pay a read-modify-write for), else the read page.
//   physical block  a power of two, never below 4 KiB: the largest one that
//                   divides the unit (48 KiB -> 16 KiB), so that with an
//                   aligned partition start no block straddles two units. It
//                   is what to declare (udev, a quirk) and what filesystem
//                   blocks, clusters, records and database pages are sized by.
//   ZFS ashift      log2 of the physical block, clamped to what OpenZFS
//                   accepts (9 to 16), saying so when clamped.
//   optimal IO      none for a single drive: mkfs.xfs turns optimal_io_size
//                   into a stripe width, which a drive does not have (not the
//                   erase block, a period of write stalls; not the write
//                   stripe, which the recommendations' notes describe as a
//                   write size). RAID layers set theirs (analysis/recommend.h).
//   F2FS sections   segments per section covering one erase block, only when
//                   the partition start is a multiple of it: F2FS lays its
//                   sections out from the partition's start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ssdprobe {

// The filesystem block every mkfs defaults to, and the one advised unless a
// larger unit was measured.
inline constexpr uint64_t kDefaultFilesystemBlock = 4096;
inline constexpr unsigned kZfsSmallestAshift = 9;   // OpenZFS ASHIFT_MIN
inline constexpr unsigned kZfsLargestAshift = 16;   // OpenZFS ASHIFT_MAX

struct BlockSizePolicy {
  std::optional<uint64_t> unit;
  const char* unit_name = "";  // "write unit" or "read page"
  std::optional<uint64_t> physical_block;
  std::optional<unsigned> ashift;
  bool ashift_clamped = false;  // the physical block is above 2^16: ashift 16 is the largest ZFS takes
  std::optional<uint64_t> optimal_io;  // always none for one drive (above); kept so outputs say so
};

BlockSizePolicy block_size_policy(std::optional<uint64_t> read_page, std::optional<uint64_t> write_unit);

// The policy in one sentence, as the verdict and the HTML report say it:
// "IO smaller than the 48 KiB write unit costs a whole one: use 16 KiB blocks
// (the largest power of two that divides it), ZFS ashift 14"; "4 KiB
// filesystem blocks are right" when no unit above 4 KiB was found.
std::string block_size_sentence(const BlockSizePolicy& policy);

// mkfs.f2fs -s: segments per section, or nullopt (the default, one 2 MiB
// segment) with the reason in `why`.
struct F2fsSections {
  std::optional<uint64_t> segments;
  std::string why;
};

// `stripe_layer`: the md array or striped LV the filesystem sits on, empty
// for a plain partition (a section cannot line up with every member's
// erase block there).
F2fsSections f2fs_sections(std::optional<uint64_t> erase_block, uint64_t partition_start,
                           const std::string& stripe_layer = "");

}  // namespace ssdprobe
