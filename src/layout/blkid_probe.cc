#include "layout/blkid_probe.h"

#include <blkid/blkid.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/error.h"
#include "core/unique_fd.h"
#include "firmware/checked_math.h"
#include "layout/dos_chain.h"
#include "layout/gpt_entries.h"
#include "layout/lvm_label.h"

namespace ssdprobe {

namespace {

struct ProbeDeleter {
  void operator()(blkid_struct_probe* probe) const { blkid_free_probe(probe); }
};
using ProbeHandle = std::unique_ptr<blkid_struct_probe, ProbeDeleter>;

// Puts the descriptor's file position back on every path: libblkid reads
// with lseek + read, which would move the caller's position.
class FilePositionGuard {
 public:
  explicit FilePositionGuard(int fd) : fd_(fd), position_(::lseek(fd, 0, SEEK_CUR)) {}
  ~FilePositionGuard() {
    if (position_ >= 0) ::lseek(fd_, position_, SEEK_SET);
  }
  FilePositionGuard(const FilePositionGuard&) = delete;
  FilePositionGuard& operator=(const FilePositionGuard&) = delete;

 private:
  int fd_;
  off_t position_;
};

constexpr uint64_t kBlkidSectorBytes = 512;  // blkid_partition_get_start/size count 512-byte sectors

// Returns the descriptor's size in bytes.
uint64_t check_descriptor(int fd, uint64_t offset, uint64_t size, uint32_t logical_block) {
  if (logical_block < 512 || logical_block > 65536 || (logical_block & (logical_block - 1)) != 0) {
    throw Error(ErrorCategory::internal, fmt::format("probe_content: logical block {} is not a power of two "
                                                     "from 512 to 65536", logical_block));
  }
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) throw os_error("libblkid probe: descriptor", fd < 0 ? EBADF : errno);
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    throw Error(ErrorCategory::target, "libblkid probe: not a block device or regular file");
  }
  // libblkid itself refuses a size past the end but accepts an offset past
  // it (and then finds nothing): both are the caller's mistake.
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < 0) throw os_error("libblkid probe: size of the descriptor", errno);
  const auto bytes = static_cast<uint64_t>(end);
  if (offset > bytes || size > bytes - offset) {
    throw Error(ErrorCategory::target, fmt::format("libblkid probe: {} bytes at {} lie beyond the end ({} bytes)",
                                                   size, offset, bytes));
  }
  return bytes;
}

// libblkid reads the whole entry array a GPT header names (up to 4 GiB)
// into memory before it checks the array's CRC, and not only when it reads
// the table: its ZFS probe has a clone read the partitions for each of the
// four ZFS labels. A crafted header on a large disk has it allocate and read
// gigabytes for minutes: TableLimits::gpt_array_bytes bounds it.
constexpr size_t kGptHeaderMinBytes = 92;
// What a copy of an area whose DOS chain is cut holds besides the boot
// records: the MBR's sector and what libblkid's FAT check reads next to it.
constexpr uint64_t kCopiedHeadBytes = 4096;

uint32_t le32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24; }
uint64_t le64(const uint8_t* p) { return le32(p) | uint64_t{le32(p + 4)} << 32; }

// A note when the GPT header at LBA 1 or at the last LBA of the probed area
// passes every check libblkid makes before it reads the entry array
// (signature, header size, CRC, its own LBA, 128-byte entries, an array
// under 4 GiB) and names an array over `max_array_bytes`.
std::optional<std::string> oversized_gpt(int fd, uint64_t offset, uint64_t size, uint32_t logical_block,
                                         uint64_t max_array_bytes) {
  if (size / logical_block < 2) return std::nullopt;
  std::vector<uint8_t> h(logical_block);
  for (const uint64_t lba : {uint64_t{1}, size / logical_block - 1}) {
    if (::pread(fd, h.data(), h.size(), static_cast<off_t>(offset + lba * logical_block)) !=
        static_cast<ssize_t>(h.size())) {
      continue;
    }
    const uint32_t header_bytes = le32(&h[12]);
    if (std::memcmp(h.data(), "EFI PART", 8) != 0 || header_bytes < kGptHeaderMinBytes || header_bytes > h.size() ||
        le64(&h[24]) != lba) {
      continue;
    }
    // UEFI's CRC-32 over the header with its CRC field zeroed (lvm2's CRC is
    // the same CRC-32 without the initial and final inversion).
    const uint32_t stored_crc = le32(&h[16]);
    std::fill_n(h.begin() + 16, 4, 0);
    if (~lvm_crc(0xffffffffu, std::span(h).first(header_bytes)) != stored_crc) continue;
    const uint32_t entries = le32(&h[80]), entry_bytes = le32(&h[84]);
    const uint64_t array_bytes = uint64_t{entries} * entry_bytes;
    if (entry_bytes != 128 || array_bytes <= max_array_bytes || array_bytes >= UINT32_MAX) continue;
    return fmt::format("the GPT header at LBA {} names {} entries of {} B ({} B, more than any real table): "
                       "libblkid is not run on this area (it would read the whole array into memory before "
                       "checking it), so no partition table or content is read here", lba, entries, entry_bytes,
                       array_bytes);
  }
  return std::nullopt;
}

ProbeHandle open_probe(int fd, uint64_t offset, uint64_t size, uint32_t logical_block) {
  ProbeHandle probe(blkid_new_probe());
  if (!probe) throw Error(ErrorCategory::internal, "libblkid: cannot allocate a probe");
  errno = 0;
  if (blkid_probe_set_device(probe.get(), fd, static_cast<blkid_loff_t>(offset),
                             static_cast<blkid_loff_t>(size)) != 0) {
    const int saved = errno;
    throw Error(saved == EACCES || saved == EPERM ? ErrorCategory::permission : ErrorCategory::target,
                fmt::format("libblkid refuses the descriptor at offset {} size {}{}", offset, size,
                            saved != 0 ? std::string(": ") + std::strerror(saved) : std::string()));
  }
  blkid_probe_set_sectorsize(probe.get(), logical_block);
  blkid_probe_enable_superblocks(probe.get(), 1);
  blkid_probe_set_superblocks_flags(probe.get(), BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
  blkid_probe_enable_partitions(probe.get(), 1);
  blkid_probe_set_partitions_flags(probe.get(), BLKID_PARTS_ENTRY_DETAILS);
  return probe;
}

std::string lookup(blkid_probe probe, const char* name) {
  const char* value = nullptr;
  if (blkid_probe_lookup_value(probe, name, &value, nullptr) != 0 || value == nullptr) return {};
  return value;
}

std::string partition_type(blkid_partition partition) {
  if (const char* guid = blkid_partition_get_type_string(partition); guid != nullptr && *guid != '\0') return guid;
  return fmt::format("0x{:02x}", static_cast<unsigned>(blkid_partition_get_type(partition)));
}

// One entry, or nullopt when libblkid's numbers cannot be a place on this
// descriptor (a GPT entry that ends before it starts gets a size that wraps
// around).
std::optional<PartitionEntry> read_entry(blkid_partition partition, uint64_t offset) {
  PartitionEntry entry;
  entry.number = blkid_partition_get_partno(partition);
  const blkid_loff_t start = blkid_partition_get_start(partition);
  const blkid_loff_t size = blkid_partition_get_size(partition);
  const auto start_bytes = start >= 0 ? checked_mul(static_cast<uint64_t>(start), kBlkidSectorBytes) : std::nullopt;
  const auto size_bytes = size >= 0 ? checked_mul(static_cast<uint64_t>(size), kBlkidSectorBytes) : std::nullopt;
  if (!start_bytes || !size_bytes || *start_bytes > std::numeric_limits<uint64_t>::max() - offset ||
      *size_bytes > std::numeric_limits<uint64_t>::max() - offset - *start_bytes) {
    return std::nullopt;
  }
  entry.start_bytes = offset + *start_bytes;
  entry.size_bytes = *size_bytes;
  entry.type = partition_type(partition);
  if (const char* name = blkid_partition_get_name(partition)) entry.name = name;
  entry.container = blkid_partition_is_extended(partition) != 0;
  return entry;
}

void note_nested(blkid_partition partition, blkid_parttable top, std::vector<std::string>& notes) {
  const blkid_parttable table = blkid_partition_get_table(partition);
  if (table == nullptr || table == top) return;
  const blkid_partition parent = blkid_parttable_get_parent(table);
  const char* type = blkid_parttable_get_type(table);
  notes.push_back(fmt::format("libblkid: partition {} belongs to a nested {} table{}; its start is as libblkid "
                              "reports it", blkid_partition_get_partno(partition), type ? type : "?",
                              parent ? fmt::format(" inside partition {}", blkid_partition_get_partno(parent))
                                     : std::string()));
}

// Where libblkid reads (the area itself, or a copy of it at 0) and where
// the area is on the descriptor the caller gave.
struct ProbedArea {
  int fd = -1;
  uint64_t probe_offset = 0;   // on `fd`
  uint64_t size = 0;
  uint64_t offset = 0;         // on the caller's descriptor: what entry starts are counted from
  uint32_t logical_block = 512;
  TableLimits limits;
};

// The GPT entries libblkid skipped, added from the array it read. Entries
// read_entry could not place (`dropped`) are among them; if the array cannot
// be read again (the disk changed), they are named in notes.
void add_skipped_gpt_entries(blkid_parttable top, const ProbedArea& area, const std::vector<int>& dropped,
                             PartitionTable& table, std::vector<std::string>& notes) {
  std::vector<int> listed;
  for (const auto& entry : table.partitions) listed.push_back(entry.number);
  const auto header_at = blkid_parttable_get_offset(top);
  const auto entries = header_at < 0 ? std::nullopt
                                     : read_unlisted_gpt_entries(area.fd, area.probe_offset,
                                                                 area.probe_offset + static_cast<uint64_t>(header_at),
                                                                 area.logical_block, listed,
                                                                 area.limits.gpt_array_bytes);
  if (entries) return add_unlisted_gpt_entries(table, *entries, area.offset);
  notes.push_back("the GPT changed while it was read: entries outside its usable sectors are not listed");
  for (const int number : dropped) {
    notes.push_back(fmt::format("libblkid: partition {} has an impossible start or size; left out", number));
  }
}

// The sector size, other than the one the area is read with, at whose LBA 1
// a GPT signature sits: a table written for 4 KiB sectors read with 512 B
// ones (an image of a 4Kn disk, a USB bridge that changed the sector size)
// shows only its protective MBR.
std::optional<uint32_t> gpt_signature_elsewhere(const ProbedArea& area) {
  for (const uint32_t sector : {512u, 4096u}) {
    if (sector == area.logical_block || area.size < 2 * uint64_t{sector}) continue;
    char signature[8];
    if (::pread(area.fd, signature, sizeof signature, static_cast<off_t>(area.probe_offset + sector)) ==
            static_cast<ssize_t>(sizeof signature) &&
        std::memcmp(signature, "EFI PART", sizeof signature) == 0) {
      return sector;
    }
  }
  return std::nullopt;
}

// Keeps the first `limit` entries (by number: the order of the table).
void keep_within(PartitionTable& table, size_t limit) {
  if (table.partitions.size() <= limit) return;
  table.partitions.resize(limit);
  table.past_cap = true;
}

// `pttype`: what safe probing named (e.g. "PMBR" for a protective MBR whose
// GPT header is not where `logical_block` puts LBA 1).
std::optional<PartitionTable> read_table(blkid_probe probe, const std::string& pttype, const ProbedArea& area,
                                         std::vector<std::string>& notes) {
  const uint32_t logical_block = area.logical_block;
  const blkid_partlist list = blkid_probe_get_partitions(probe);
  const blkid_parttable top = list ? blkid_partlist_get_table(list) : nullptr;
  if (top == nullptr) {
    notes.push_back(fmt::format("libblkid: partition table type '{}' detected but no table could be read "
                                "with {}-byte sectors", pttype, logical_block));
    return std::nullopt;
  }
  const char* scheme = blkid_parttable_get_type(top);
  PartitionTable table;
  table.scheme = scheme ? scheme : "";
  if (table.scheme != "gpt" && table.scheme != "dos") {
    notes.push_back(fmt::format("libblkid: a '{}' partition table is there; only gpt and dos tables are read",
                                table.scheme));
    return std::nullopt;
  }
  table.sector_bytes = logical_block;
  const int count = blkid_partlist_numof_partitions(list);
  std::vector<int> dropped;
  for (int i = 0; i < count; ++i) {
    const blkid_partition partition = blkid_partlist_get_partition(list, i);
    if (partition == nullptr) continue;
    note_nested(partition, top, notes);
    if (auto entry = read_entry(partition, area.offset)) {
      table.partitions.push_back(std::move(*entry));
    } else {
      dropped.push_back(blkid_partition_get_partno(partition));
    }
  }
  if (table.scheme == "gpt") add_skipped_gpt_entries(top, area, dropped, table, notes);
  keep_within(table, area.limits.partitions);
  return table;
}

// libblkid's safe probe of the area, and the table it finds there.
ContentProbe probe_area(const ProbedArea& area) {
  ContentProbe result;
  const ProbeHandle probe = open_probe(area.fd, area.probe_offset, area.size, area.logical_block);
  errno = 0;
  const int rc = blkid_do_safeprobe(probe.get());
  if (rc == -2) {
    result.notes.push_back("libblkid: ambivalent result (more than one signature claims this area)");
    return result;
  }
  if (rc < 0) {
    const int saved = errno;
    result.notes.push_back(fmt::format("libblkid: probing failed{}",
                                       saved != 0 ? std::string(": ") + std::strerror(saved) : std::string()));
    return result;
  }
  if (rc == 1) return result;  // nothing libblkid knows
  result.type = lookup(probe.get(), "TYPE");
  result.usage = lookup(probe.get(), "USAGE");
  // The table is taken only where safe probing reported one: libblkid hides
  // a table that belongs to something else (an md member's array table).
  if (const std::string pttype = lookup(probe.get(), "PTTYPE"); !pttype.empty()) {
    result.table = read_table(probe.get(), pttype, area, result.notes);
    if (!result.table) {
      result.unread_table = UnreadTable{pttype, pttype == "PMBR" ? gpt_signature_elsewhere(area) : std::nullopt};
    }
  }
  return result;
}

// A DOS table whose chain goes on past the limits: libblkid reads a copy
// that ends where the limit is reached.
ContentProbe probe_cut_chain(const ProbedArea& area, int fd, const std::vector<uint64_t>& records) {
  const UniqueFd copy = copy_of_records(fd, area.offset, area.size, kCopiedHeadBytes, records);
  if (!copy.valid()) {
    ContentProbe result;
    result.notes.push_back(fmt::format("a DOS partition table with more than {} partitions or extended boot records "
                                       "is there, and no copy of its first ones could be made in memory: "
                                       "libblkid is not run on this area", area.limits.partitions));
    return result;
  }
  ProbedArea cut = area;
  cut.fd = copy.get();
  cut.probe_offset = 0;
  ContentProbe result = probe_area(cut);
  if (result.table) result.table->past_cap = true;
  return result;
}

}  // namespace

ContentProbe probe_content(int fd, uint64_t offset, uint64_t size, uint32_t logical_block,
                           const TableLimits& limits) {
  const FilePositionGuard keep_position(fd);
  const uint64_t bytes = check_descriptor(fd, offset, size, logical_block);
  const ProbedArea area{fd, offset, size != 0 ? size : bytes - offset, offset, logical_block, limits};
  if (auto note = oversized_gpt(fd, offset, area.size, logical_block, limits.gpt_array_bytes)) {
    ContentProbe result;
    result.notes.push_back(std::move(*note));
    return result;
  }
  if (auto records = dos_records_past_cap(fd, offset, area.size, logical_block, limits.partitions)) {
    return probe_cut_chain(area, fd, *records);
  }
  return probe_area(area);
}

}  // namespace ssdprobe
