// A DOS table's chain of extended boot records, walked by hand the way
// libblkid walks it (libblkid/src/partitions/dos.c), so that libblkid can
// be stopped before it reads past a cap. libblkid keeps every sector it has
// read in a list it searches before each read, and every partition in one
// it searches before adding the next; and its superblock probes read the
// whole table again, several times. A chain of 20,000 logical partitions
// takes `blkid -p` over a minute, 40,000 four times as long. This walk
// costs one read per boot record and stops at the cap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/unique_fd.h"

namespace ssdprobe {

// The byte offsets, from the area's start, of the boot records libblkid
// reads before its table holds more than `cap` partitions or it has read
// more than `cap` extended boot records: sector 0, then the chain up to and
// including the record where the cap is passed. Nullopt when the area's
// table (if it has one) stays within the cap: libblkid may read it whole.
// `logical_block`: the sector size the table counts in.
std::optional<std::vector<uint64_t>> dos_records_past_cap(int fd, uint64_t offset, uint64_t size,
                                                          uint32_t logical_block, size_t cap);

// A sparse in-memory copy of [offset, offset + size) of `fd` that holds only
// its first `head_bytes` and the 512-byte sectors at `records` (offsets in
// the area): the same table, ending where the copied records end. Invalid
// when no such copy can be made (no memfd, a short read).
UniqueFd copy_of_records(int fd, uint64_t offset, uint64_t size, uint64_t head_bytes,
                         std::span<const uint64_t> records);

}  // namespace ssdprobe
