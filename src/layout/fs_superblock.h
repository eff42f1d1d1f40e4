// Filesystem superblocks decoded into FilesystemInfo: the sizes that decide
// whether a filesystem is aligned to the drive and to the RAID/LVM layers
// below it (block, stripe unit and width, f2fs segment and section, btrfs
// sector and node). libblkid names the type (blkid_probe.h); this file reads
// the fields libblkid does not report. The bytes come from the disk and are
// untrusted: every field is range-checked and a field that makes no sense is
// left unset, never used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "layout/layout.h"

namespace ssdprobe {

// Bytes to read from a filesystem's start so every decoder below finds its
// superblock (btrfs's is at 64 KiB; a swap header sits at the end of the
// first page, up to 64 KiB pages).
constexpr size_t kFilesystemHeadBytes = 128 * 1024;

// Decodes the superblock of a filesystem libblkid identified as `type` from
// `head` (its first bytes; shorter than kFilesystemHeadBytes is fine, the
// fields that lie beyond it are then not decoded).
//  - xfs (big-endian, magic "XFSB" at 0): block_bytes = sb_blocksize,
//    sector_bytes = sb_sectsize, stripe unit/width = sb_unit/sb_width
//    (counted in blocks) in bytes.
//  - ext2/ext3/ext4 (at 1024, magic 0xEF53): block_bytes from
//    s_log_block_size, stripe unit/width from s_raid_stride /
//    s_raid_stripe_width (blocks), flex_bg_groups = 2^s_log_groups_per_flex
//    when the flex_bg feature is set.
//  - f2fs (at 1024, magic 0xF2F52010): block_bytes, segment_bytes (blocks
//    per segment) and section_bytes (segments per section).
//  - btrfs (at 64 KiB, magic "_BHRfS_M"): block_bytes = sector_bytes =
//    sectorsize, node_bytes = nodesize.
//  - swap: block_bytes = the page size the header was written for (where
//    "SWAPSPACE2" / "SWAP-SPACE" ends a page).
// label where the format has one (bytes outside printable ASCII read as '?').
// Any other type, or a missing magic: {type, block_bytes = 0}. A zero or
// absurd field leaves its value unset (block_bytes 0 when the block size
// itself is not believable); nothing here throws for bad bytes.
FilesystemInfo decode_filesystem(const std::string& type, std::span<const uint8_t> head);

}  // namespace ssdprobe
