#include "layout/fs_superblock.h"

#include <array>
#include <string_view>

#include "firmware/byte_reader.h"

namespace ssdprobe {

namespace {

bool is_power_of_two_between(uint64_t value, uint64_t low, uint64_t high) {
  return value >= low && value <= high && (value & (value - 1)) == 0;
}

// A NUL-terminated label field of at most `length` bytes (what follows the
// first NUL is left-over garbage, not part of the label).
std::string label_at(const ByteReader& r, size_t offset, size_t length) {
  if (!r.has(offset, length)) return {};
  std::string text;
  for (size_t i = 0; i < length && r.u8(offset + i) != 0; ++i) text += static_cast<char>(r.u8(offset + i));
  return clean_ascii(text);
}

// A NUL-terminated UTF-16LE label of at most `units` code units; code units
// outside printable ASCII become '?', like every other label here.
std::string utf16le_label_at(const ByteReader& r, size_t offset, size_t units) {
  if (!r.has(offset, units * 2)) return {};
  std::string text;
  for (size_t i = 0; i < units; ++i) {
    const uint16_t unit = r.le16(offset + 2 * i);
    if (unit == 0) break;
    text += unit < 0x80 ? static_cast<char>(unit) : '?';
  }
  return clean_ascii(text);
}

// --- xfs: xfsprogs libxfs/xfs_format.h, struct xfs_dsb (big-endian) --------
constexpr uint32_t kXfsMagic = 0x58465342;         // "XFSB", sb_magicnum at 0
constexpr size_t kXfsBlockSize = 4;                // __be32 sb_blocksize
constexpr size_t kXfsAgBlocks = 84;                // __be32 sb_agblocks
constexpr size_t kXfsVersionNum = 100;             // __be16 sb_versionnum
constexpr size_t kXfsSectSize = 102;               // __be16 sb_sectsize
constexpr size_t kXfsFname = 108;                  // char sb_fname[12]
constexpr size_t kXfsUnit = 184;                   // __be32 sb_unit (blocks)
constexpr size_t kXfsWidth = 188;                  // __be32 sb_width (blocks)
constexpr uint16_t kXfsVersionDalignBit = 0x0100;  // XFS_SB_VERSION_DALIGNBIT: sb_unit/sb_width valid

void decode_xfs(const ByteReader& r, FilesystemInfo& fs) {
  if (r.be32(0) != kXfsMagic) return;
  fs.label = label_at(r, kXfsFname, 12);
  // XFS_MIN_SECTORSIZE 512 .. XFS_MAX_SECTORSIZE 32 KiB.
  const uint32_t sectsize = r.be16(kXfsSectSize);
  if (is_power_of_two_between(sectsize, 512, 32768)) fs.sector_bytes = sectsize;
  // XFS_MIN_BLOCKSIZE 512 .. XFS_MAX_BLOCKSIZE 64 KiB.
  const uint32_t blocksize = r.be32(kXfsBlockSize);
  if (!is_power_of_two_between(blocksize, 512, 65536)) return;
  fs.block_bytes = blocksize;
  if (const uint64_t ag_blocks = r.be32(kXfsAgBlocks); ag_blocks != 0) fs.allocation_group_bytes = ag_blocks * blocksize;
  // The kernel (xfs_validate_sb_common) accepts a stripe only with the
  // dalign bit and a width that is a whole number of units.
  const uint64_t unit = r.be32(kXfsUnit);
  const uint64_t width = r.be32(kXfsWidth);
  const bool dalign = (r.be16(kXfsVersionNum) & kXfsVersionDalignBit) != 0;
  if (unit == 0 || !dalign || width < unit || width % unit != 0) return;
  fs.stripe_unit_bytes = unit * blocksize;  // < 2^32 × 2^16: no overflow
  fs.stripe_width_bytes = width * blocksize;
}

// --- ext2/3/4: linux fs/ext4/ext4.h, struct ext4_super_block (LE) at 1024 ---
constexpr size_t kExtSuperblock = 1024;
constexpr size_t kExtLogBlockSize = 0x18;       // __le32 s_log_block_size: block = 1024 << it
constexpr size_t kExtLogClusterSize = 0x1C;     // __le32 s_log_cluster_size: cluster = 1024 << it (bigalloc)
constexpr size_t kExtFeatureRoCompat = 0x64;    // __le32 s_feature_ro_compat
constexpr uint32_t kExtRoCompatBigalloc = 0x200;  // EXT4_FEATURE_RO_COMPAT_BIGALLOC
constexpr uint32_t kExtMaxLogClusterSize = 19;  // EXT4_MAX_CLUSTER_LOG_SIZE 29: 512 MiB clusters
constexpr size_t kExtMagicOffset = 0x38;        // __le16 s_magic
constexpr uint16_t kExtMagic = 0xEF53;
constexpr size_t kExtFeatureIncompat = 0x60;    // __le32 s_feature_incompat
constexpr size_t kExtVolumeName = 0x78;         // char s_volume_name[16]
constexpr size_t kExtRaidStride = 0x164;        // __le16 s_raid_stride (blocks)
constexpr size_t kExtRaidStripeWidth = 0x170;   // __le32 s_raid_stripe_width (blocks)
constexpr size_t kExtLogGroupsPerFlex = 0x174;  // __u8 s_log_groups_per_flex
constexpr uint32_t kExtIncompatFlexBg = 0x200;  // EXT4_FEATURE_INCOMPAT_FLEX_BG
constexpr uint32_t kExtMaxLogBlockSize = 6;     // EXT4_MAX_BLOCK_LOG_SIZE 16: 64 KiB blocks
constexpr uint32_t kExtMaxLogGroupsPerFlex = 31;  // ext4_fill_flex_info refuses more

void decode_ext(const ByteReader& r, FilesystemInfo& fs) {
  if (!r.has(kExtSuperblock, 1024) || r.le16(kExtSuperblock + kExtMagicOffset) != kExtMagic) return;
  fs.label = label_at(r, kExtSuperblock + kExtVolumeName, 16);
  const uint32_t incompat = r.le32(kExtSuperblock + kExtFeatureIncompat);
  const uint8_t log_flex = r.u8(kExtSuperblock + kExtLogGroupsPerFlex);
  if ((incompat & kExtIncompatFlexBg) != 0 && log_flex >= 1 && log_flex <= kExtMaxLogGroupsPerFlex) {
    fs.flex_bg_groups = uint32_t{1} << log_flex;
  }
  const uint32_t log_block = r.le32(kExtSuperblock + kExtLogBlockSize);
  if (log_block > kExtMaxLogBlockSize) return;
  fs.block_bytes = uint32_t{1024} << log_block;
  const uint64_t stride = r.le16(kExtSuperblock + kExtRaidStride);
  const uint64_t stripe_width = r.le32(kExtSuperblock + kExtRaidStripeWidth);
  if (stride != 0) fs.stripe_unit_bytes = stride * fs.block_bytes;
  if (stripe_width != 0) fs.stripe_width_bytes = stripe_width * fs.block_bytes;  // < 2^48
  const uint32_t log_cluster = r.le32(kExtSuperblock + kExtLogClusterSize);
  const bool bigalloc = (r.le32(kExtSuperblock + kExtFeatureRoCompat) & kExtRoCompatBigalloc) != 0;
  if (bigalloc && log_cluster >= log_block && log_cluster <= kExtMaxLogClusterSize) {
    fs.cluster_bytes = uint64_t{1024} << log_cluster;
  }
}

// --- f2fs: linux include/linux/f2fs_fs.h, struct f2fs_super_block (LE) -----
constexpr size_t kF2fsSuperblock = 1024;           // F2FS_SUPER_OFFSET
constexpr uint32_t kF2fsMagic = 0xF2F52010;        // __le32 magic at 0
constexpr size_t kF2fsLogSectorSize = 8;           // __le32 log_sectorsize
constexpr size_t kF2fsLogSectorsPerBlock = 12;     // __le32 log_sectors_per_block
constexpr size_t kF2fsLogBlocksPerSeg = 20;        // __le32 log_blocks_per_seg
constexpr size_t kF2fsSegsPerSec = 24;             // __le32 segs_per_sec
constexpr size_t kF2fsVolumeName = 124;            // __le16 volume_name[512]
constexpr size_t kF2fsVolumeNameUnits = 512;       // MAX_VOLUME_NAME
// Beyond the kernel's own limits (blocks up to 16 KiB pages, 512 blocks per
// segment) but small enough that every product stays far from overflow.
constexpr uint32_t kF2fsMaxLogBlocksPerSeg = 16;
constexpr uint32_t kF2fsMaxSegsPerSec = uint32_t{1} << 20;

void decode_f2fs(const ByteReader& r, FilesystemInfo& fs) {
  if (r.le32(kF2fsSuperblock) != kF2fsMagic) return;
  fs.label = utf16le_label_at(r, kF2fsSuperblock + kF2fsVolumeName, kF2fsVolumeNameUnits);
  // F2FS_MIN_LOG_SECTOR_SIZE 9; a block is 2^(log_sectorsize + log_sectors_per_block).
  const uint64_t log_sector = r.le32(kF2fsSuperblock + kF2fsLogSectorSize);
  const uint64_t log_block = log_sector + r.le32(kF2fsSuperblock + kF2fsLogSectorsPerBlock);
  if (log_sector < 9 || log_block > 16) return;
  fs.block_bytes = uint32_t{1} << log_block;
  const uint32_t log_blocks_per_seg = r.le32(kF2fsSuperblock + kF2fsLogBlocksPerSeg);
  if (log_blocks_per_seg < 1 || log_blocks_per_seg > kF2fsMaxLogBlocksPerSeg) return;
  const uint64_t segment = uint64_t{fs.block_bytes} << log_blocks_per_seg;  // <= 2^32
  fs.segment_bytes = segment;
  const uint32_t segs_per_sec = r.le32(kF2fsSuperblock + kF2fsSegsPerSec);
  if (segs_per_sec < 1 || segs_per_sec > kF2fsMaxSegsPerSec) return;
  fs.section_bytes = segment * segs_per_sec;  // <= 2^52
}

// --- btrfs: linux include/uapi/linux/btrfs_tree.h, struct btrfs_super_block -
constexpr size_t kBtrfsSuperblock = 65536;  // BTRFS_SUPER_INFO_OFFSET
constexpr size_t kBtrfsMagicOffset = 64;    // __le64 magic: "_BHRfS_M"
constexpr size_t kBtrfsSectorSize = 144;    // __le32 sectorsize
constexpr size_t kBtrfsNodeSize = 148;      // __le32 nodesize
constexpr size_t kBtrfsLabel = 299;         // char label[256], after the 98-byte dev_item at 201
constexpr uint32_t kBtrfsMaxBlock = 65536;  // BTRFS_MAX_METADATA_BLOCKSIZE

void decode_btrfs(const ByteReader& r, FilesystemInfo& fs) {
  if (!r.equals(kBtrfsSuperblock + kBtrfsMagicOffset, "_BHRfS_M")) return;
  fs.label = label_at(r, kBtrfsSuperblock + kBtrfsLabel, 256);
  const uint32_t sectorsize = r.le32(kBtrfsSuperblock + kBtrfsSectorSize);
  if (!is_power_of_two_between(sectorsize, 512, kBtrfsMaxBlock)) return;
  fs.block_bytes = sectorsize;
  fs.sector_bytes = sectorsize;
  const uint32_t nodesize = r.le32(kBtrfsSuperblock + kBtrfsNodeSize);
  if (is_power_of_two_between(nodesize, sectorsize, kBtrfsMaxBlock)) fs.node_bytes = nodesize;
}

// --- swap: linux include/linux/swap.h, union swap_header --------------------
// The magic fills the last 10 bytes of the first page, so where it is found
// tells the page size mkswap wrote it for.
constexpr std::array<uint32_t, 5> kSwapPageSizes = {4096, 8192, 16384, 32768, 65536};
constexpr size_t kSwapMagicBytes = 10;
constexpr size_t kSwapVolumeName = 1052;  // info.volume_name[16]: 1024 bootbits + 3×u32 + uuid[16]

void decode_swap(const ByteReader& r, FilesystemInfo& fs) {
  for (const uint32_t page : kSwapPageSizes) {
    const size_t magic_offset = page - kSwapMagicBytes;
    if (r.equals(magic_offset, "SWAPSPACE2")) {
      fs.block_bytes = page;
      fs.label = label_at(r, kSwapVolumeName, 16);
      return;
    }
    if (r.equals(magic_offset, "SWAP-SPACE")) {  // version 0: no label
      fs.block_bytes = page;
      return;
    }
  }
}

}  // namespace

FilesystemInfo decode_filesystem(const std::string& type, std::span<const uint8_t> head) {
  FilesystemInfo fs;
  fs.type = type;
  const ByteReader r(head);
  if (type == "xfs") decode_xfs(r, fs);
  else if (type == "ext2" || type == "ext3" || type == "ext4" || type == "ext4dev") decode_ext(r, fs);
  else if (type == "f2fs") decode_f2fs(r, fs);
  else if (type == "btrfs") decode_btrfs(r, fs);
  else if (type == "swap") decode_swap(r, fs);
  return fs;
}

}  // namespace ssdprobe
