// Linux md RAID member superblocks, version 1.x, decoded from the bytes a
// member device holds (and, for tests and fuzz seeds, encoded from the same
// definition). The format is struct mdp_superblock_1 of the Linux header
// include/uapi/linux/raid/md_p.h: 256 fixed bytes, all little-endian, then
// one 16-bit role per device slot (dev_roles[max_dev]).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

// md_p.h MD_SB_MAGIC, and the size a v1.x superblock occupies on the member.
inline constexpr uint32_t kMdSuperblockMagic = 0xa92b4efc;
inline constexpr size_t kMdSuperblockBytes = 4096;

// Where a v1.x superblock may sit on a member of `member_size` bytes, as
// (minor_version, byte offset): 1.1 at 0, 1.2 at 4096, 1.0 at
// ((member_size / 512 - 16) & ~7) * 512 (the kernel's and mdadm's rule: at
// least 8 KiB from the end, on a 4 KiB boundary; left out when the member is
// smaller than 8 KiB). 1.1 and 1.2 are listed whatever the size.
std::vector<std::pair<int, uint64_t>> md_superblock_locations(uint64_t member_size);

// Decodes the superblock at the start of `bytes` (read at a candidate
// location: 4 KiB, at least the 256 fixed bytes and dev_roles). nullopt
// unless the magic, major version 1, the checksum (see md_superblock.cc),
// the location (super_offset == superblock_offset / 512, and the place the
// minor version puts it) and every range check hold: chunk size a power of
// two (and present for striped levels), raid_disks 1..384, a known level,
// the data area after a 1.1/1.2 superblock or before a 1.0 one, and
// data_offset + data_size inside the member when member_size is known (pass
// 0 when it is not).
std::optional<MdSuperblock> decode_md_superblock(std::span<const uint8_t> bytes, int minor_version,
                                                 uint64_t superblock_offset, uint64_t member_size);

// Writes a valid v1.x superblock for `sb` into the first 4096 bytes of `out`
// (for tests and fuzz seeds: decode_md_superblock returns the same fields).
// Byte offsets and sizes are written in 512-byte sectors (rounded down); a
// member with role -1 is written as a spare. It does not check that the
// fields make sense together, so tests can also build superblocks the
// decoder must refuse. Throws std::invalid_argument if `out` is shorter than
// 4096 bytes, the uuid is not 32 hex digits, the name is longer than 32
// bytes or raid_disks is not 1..384.
void encode_md_superblock(const MdSuperblock& sb, std::span<uint8_t> out);

}  // namespace ssdprobe
