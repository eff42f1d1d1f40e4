#include "layout/dos_chain.h"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <unordered_set>

#include "core/pread_exactly.h"
#include "layout/layout.h"

namespace ssdprobe {
namespace {

constexpr size_t kEntries = 446;            // the four 16-byte partition entries
constexpr int kMaxRecordsWithoutData = 100;  // libblkid gives up after this many boot records without a partition
constexpr std::array<uint8_t, 4> kAixMagic = {0xc9, 0xc2, 0xd4, 0xc1};
constexpr uint8_t kGptProtective = 0xee;

using Sector = std::array<uint8_t, kFormatSectorBytes>;

bool signed_record(const Sector& s) { return s[510] == 0x55 && s[511] == 0xaa; }

// One of the four entries. Starts and sizes are in the table's sectors,
// scaled to 512-byte units in 32 bits as libblkid does (wrapping with it).
struct Entry {
  uint8_t boot = 0, type = 0;
  uint32_t start = 0, size = 0;
  bool extended() const { return type == 0x05 || type == 0x0f || type == 0x85; }
};

Entry entry_of(const Sector& s, int i, uint32_t units) {
  const uint8_t* p = s.data() + kEntries + 16 * i;
  const auto le32 = [](const uint8_t* q) { return q[0] | q[1] << 8 | q[2] << 16 | static_cast<uint32_t>(q[3]) << 24; };
  return {p[0], p[4], le32(p + 8) * units, le32(p + 12) * units};
}

class ChainWalk {
 public:
  ChainWalk(int fd, uint64_t offset, uint64_t size, uint32_t units, size_t cap)
      : fd_(fd), offset_(offset), size_(size), units_(units), cap_(cap) {}

  // True when the cap is passed (records_ then ends with the record where).
  bool past_cap(const Sector& mbr) {
    records_.push_back(0);
    for (int i = 0; i < 4; ++i) {
      const Entry e = entry_of(mbr, i, units_);
      if (e.size != 0 && add_partition(e.start)) return true;
    }
    for (int i = 0; i < 4; ++i) {
      const Entry e = entry_of(mbr, i, units_);
      if (e.size != 0 && e.extended() && walk(e.start, e.size)) return true;
    }
    return false;
  }

  std::vector<uint64_t> records() && { return std::move(records_); }

 private:
  // parse_dos_extended: each record's data entries, then its first link.
  bool walk(uint32_t ex_start, uint32_t ex_size) {
    uint32_t cur_start = ex_start, cur_size = ex_size;
    int without_data = 0;
    Sector s;
    while (++without_data <= kMaxRecordsWithoutData) {
      const uint64_t at = uint64_t{cur_start} * kFormatSectorBytes;
      // A record read before: libblkid goes round the loop finding only
      // partitions it has, until it gives up.
      if (!visited_.insert(cur_start).second) return false;
      if (at > size_ || size_ - at < kFormatSectorBytes || !pread_exactly(fd_, s, offset_ + at) || !signed_record(s)) return false;
      records_.push_back(at);
      if (++boot_records_ > cap_) return true;
      for (int i = 0; i < 4; ++i) {
        const Entry e = entry_of(s, i, units_);
        const uint32_t abs_start = cur_start + e.start;
        if (e.size == 0 || e.extended()) continue;
        // libblkid's extra checks for real data in the 3rd and 4th entries.
        const bool inside = e.start + e.size <= cur_size && abs_start >= ex_start &&
                            abs_start + e.size <= ex_start + ex_size;
        if (i >= 2 && !inside) continue;
        if (starts_.contains(abs_start)) continue;  // libblkid skips a partition it has (a loop in the chain)
        if (add_partition(abs_start)) return true;
        without_data = 0;
      }
      std::optional<Entry> link;
      for (int i = 0; i < 4 && !link; ++i) {
        if (const Entry e = entry_of(s, i, units_); e.size != 0 && e.extended()) link = e;
      }
      if (!link) return false;
      cur_start = ex_start + link->start;
      cur_size = link->size;
    }
    return false;
  }

  bool add_partition(uint32_t start) {
    starts_.insert(start);
    return ++partitions_ > cap_;
  }

  int fd_;
  uint64_t offset_, size_;
  uint32_t units_;
  size_t cap_;
  size_t partitions_ = 0, boot_records_ = 0;
  std::vector<uint64_t> records_;
  std::unordered_set<uint32_t> visited_, starts_;
};

}  // namespace

std::optional<std::vector<uint64_t>> dos_records_past_cap(int fd, uint64_t offset, uint64_t size,
                                                          uint32_t logical_block, size_t cap) {
  Sector mbr;
  if (size < kFormatSectorBytes || !pread_exactly(fd, mbr, offset) || !signed_record(mbr)) return std::nullopt;
  // What makes libblkid's dos probe give up before it reads a chain.
  if (std::memcmp(mbr.data(), kAixMagic.data(), kAixMagic.size()) == 0) return std::nullopt;
  for (int i = 0; i < 4; ++i) {
    const Entry e = entry_of(mbr, i, 1);
    if ((e.boot != 0 && e.boot != 0x80) || e.type == kGptProtective) return std::nullopt;
  }
  ChainWalk walk(fd, offset, size, logical_block / static_cast<uint32_t>(kFormatSectorBytes), cap);
  if (!walk.past_cap(mbr)) return std::nullopt;
  return std::move(walk).records();
}

UniqueFd copy_of_records(int fd, uint64_t offset, uint64_t size, uint64_t head_bytes,
                         std::span<const uint64_t> records) {
  UniqueFd copy(::memfd_create("ssdprobe-partition-table", MFD_CLOEXEC));
  if (!copy.valid() || ::ftruncate(copy.get(), static_cast<off_t>(size)) != 0) return {};
  std::vector<uint8_t> head(std::min(head_bytes, size));
  if (::pread(fd, head.data(), head.size(), static_cast<off_t>(offset)) != static_cast<ssize_t>(head.size()) ||
      ::pwrite(copy.get(), head.data(), head.size(), 0) != static_cast<ssize_t>(head.size())) {
    return {};
  }
  Sector s;
  for (const uint64_t at : records) {
    if (!pread_exactly(fd, s, offset + at) ||
        ::pwrite(copy.get(), s.data(), s.size(), static_cast<off_t>(at)) != static_cast<ssize_t>(s.size())) {
      return {};
    }
  }
  return copy;
}

}  // namespace ssdprobe
