// What libblkid finds on a disk, a partition or an image file: the content
// type (a filesystem, an md member, an LVM PV, swap, ...) and the partition
// table written there. The only user of libblkid in ssdprobe; everything
// else reads ContentProbe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

// What libblkid finds in [offset, offset + size) of an open descriptor.
struct ContentProbe {
  std::string type;    // blkid TYPE: "xfs", "ext4", "LVM2_member", "linux_raid_member", "swap", ... ; "" when nothing
  std::string usage;   // blkid USAGE: "filesystem", "raid", "crypto", "other", ""
  std::optional<PartitionTable> table;  // when a partition table (gpt/dos) is there
  std::optional<UnreadTable> unread_table;  // a table libblkid named but that was not read
  std::vector<std::string> notes;       // e.g. "libblkid: ambivalent result" — never throw for content
};

// How much of a partition table libblkid may read in one area. The disk's
// own table: up to kMaxTablePartitions partitions (layout.h) and a GPT entry
// array of 16 MiB (no real table comes near: 128 entries of 128 B are
// 16 KiB). A table inside a partition is only named, never followed
// (layout_reader.h), and every partition's area is probed: a crafted disk
// could otherwise have libblkid read a whole table for each of them.
struct TableLimits {
  size_t partitions = kMaxTablePartitions;
  uint64_t gpt_array_bytes = 16 << 20;
};
inline constexpr TableLimits kDiskTableLimits{};
inline constexpr TableLimits kInnerTableLimits{16, 64 << 10};

// Probes [offset, offset + size) of `fd` (size 0: up to the end) with
// libblkid's low-level API, the way `blkid -p` does ("safe" probing: an
// ambivalent result, two filesystems claiming the same area, is reported
// as a note and no type).
//
// `logical_block` is the sector size the partition table counts in (the
// disk's logical block; 512 for an image of a 512-byte disk); it becomes
// PartitionTable::sector_bytes.
//
// Partition offsets: a table's entries count from the table's own disk,
// which is the probed area (its MBR/GPT header sits at `offset`), and
// libblkid reports them that way, in 512-byte units whatever the sector
// size. PartitionEntry::start_bytes is made absolute for the descriptor:
// `offset` + the table's start, i.e. counted from the descriptor's byte 0.
// With offset 0 (a whole disk or a disk image) that is simply the start
// from the start of the disk.
//
// MBR: primary partitions are numbered 1-4 by their slot, logical ones
// from 5 in chain order (the numbers the kernel gives them). The extended
// partition is listed too (libblkid reports it as an ordinary entry with
// its full size, type 0x05/0x0f/0x85) with `container = true`: its start
// is where the chain of EBRs begins, not where data goes.
//
// Only gpt and dos tables are returned; another kind (mac, sun, bsd, ...)
// is named in a note. A table nested inside a partition (a BSD label in a
// dos partition) is listed as libblkid reports it, with a note.
//
// GPT: the entries libblkid skips without a word (any part outside the
// header's usable sectors) are listed too, read from the entry array libblkid
// checked (gpt_entries.h), and the usable sectors are kept; an entry whose
// last sector comes before its first is in `impossible`. The audit names
// them all.
//
// Limits (`limits`): a GPT header (at LBA 1 or the last LBA of the area)
// that libblkid would accept and that names an entry array over
// `limits.gpt_array_bytes`: the area is not probed at all, and a note says
// why. libblkid would read the whole array (up to 4 GiB) into memory before
// checking it, for the table and again for each ZFS label it looks for. A
// table with more than `limits.partitions` partitions keeps the first ones
// and says `past_cap`; a DOS chain of logical partitions that goes on past
// the limit (in partitions or in extended boot records) is cut before
// libblkid reads it (dos_chain.h): libblkid is run on a copy of the area
// that holds its first 4 KiB and the boot records up to the limit, so
// nothing past them (no filesystem either) is probed there.
//
// Read-only: libblkid only reads (the descriptor may be O_RDONLY), and the
// descriptor's file position is put back where it was.
//
// Throws Error only for an unusable descriptor (closed, not a regular file
// or block device, an area that reaches beyond its end, or libblkid
// refuses it) or a logical_block that is not a power of two from 512 to
// 64 KiB; what is or is not on the disk only ever shows up in the result
// and its notes (a GPT read with the wrong logical block, for instance, is
// a note naming the "PMBR" libblkid saw).
ContentProbe probe_content(int fd, uint64_t offset, uint64_t size, uint32_t logical_block,
                           const TableLimits& limits = kDiskTableLimits);

}  // namespace ssdprobe
