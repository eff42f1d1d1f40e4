// Partition tables written byte by byte into sparse image files, for what
// sfdisk and sgdisk refuse to write: entries that overlap, entries past the
// disk's end or over the table itself, an entry that ends before it starts,
// a chain of thousands of logical partitions. The GPT follows UEFI 2.10
// 5.3 (protective MBR, header at LBA 1 and its backup at the last LBA, CRCs
// over both headers and the entry array), so libblkid accepts it; the DOS
// table follows the MBR/EBR layout libblkid and the kernel read.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "layout/lvm_label.h"

namespace table_image {

constexpr uint64_t kSector = 512;

inline void put_le(uint8_t* p, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}

// An image file of `sectors` 512-byte sectors, all holes.
class Image {
 public:
  Image(const std::string& path, uint64_t sectors)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) {
    if (fd_ < 0 || ::ftruncate(fd_, static_cast<off_t>(sectors * kSector)) != 0) {
      throw std::runtime_error("image " + path);
    }
  }
  ~Image() { ::close(fd_); }
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  void write(uint64_t byte_offset, std::span<const uint8_t> bytes) const {
    const auto written = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(byte_offset));
    if (written != static_cast<ssize_t>(bytes.size())) {
      throw std::runtime_error("pwrite");
    }
  }

 private:
  int fd_;
};

using Sector = std::array<uint8_t, kSector>;

// A boot record (MBR or EBR) with up to four entries {type, start, size}.
struct DosEntry {
  uint8_t type = 0;
  uint32_t start = 0, size = 0;
};
inline Sector boot_record(const std::vector<DosEntry>& entries) {
  Sector s{};
  for (size_t i = 0; i < entries.size() && i < 4; ++i) {
    uint8_t* e = s.data() + 446 + 16 * i;
    e[4] = entries[i].type;
    put_le(e + 8, entries[i].start, 4);
    put_le(e + 12, entries[i].size, 4);
  }
  s[510] = 0x55;
  s[511] = 0xaa;
  return s;
}

// A DOS table: primary entries in the MBR of a disk of `sectors` sectors.
inline void write_dos(const std::string& path, uint64_t sectors, const std::vector<DosEntry>& primaries) {
  const Image image(path, sectors);
  image.write(0, boot_record(primaries));
}

// A DOS table whose extended partition (primary 1, from sector 2048) holds a
// chain of `count` logical partitions. The boot records lie one after the
// other from sector 2048 (a few MiB to write, however long the chain); each
// logical partition's data is 1985 sectors in a 2048-sector slot after them,
// from sector 63 of its slot (so no logical start is aligned). `at`: the
// byte where the table's disk (its MBR) starts in `image`, which must hold
// dos_chain_sectors(count) sectors from there.
constexpr uint32_t kChainStart = 2048, kChainSlot = 2048, kChainData = 63;
inline uint64_t dos_chain_data(uint32_t count) {
  return (uint64_t{kChainStart} + count + kChainSlot - 1) / kChainSlot * kChainSlot;
}
inline uint64_t dos_chain_sectors(uint32_t count) { return dos_chain_data(count) + uint64_t{count} * kChainSlot; }

inline void write_dos_chain(const Image& image, uint64_t at, uint32_t count) {
  const uint64_t data = dos_chain_data(count);
  image.write(at, boot_record({{0x05, kChainStart, static_cast<uint32_t>(dos_chain_sectors(count) - kChainStart)}}));
  std::vector<uint8_t> records;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t ebr = kChainStart + i;
    const uint64_t start = data + uint64_t{i} * kChainSlot + kChainData;  // from the disk's start
    std::vector<DosEntry> entries = {{0x83, static_cast<uint32_t>(start - ebr), kChainSlot - kChainData}};
    if (i + 1 < count) entries.push_back({0x05, i + 1, 1});  // the next record, counted from the extended partition
    const Sector record = boot_record(entries);
    records.insert(records.end(), record.begin(), record.end());
  }
  image.write(at + uint64_t{kChainStart} * kSector, records);
}

// A GPT entry: sectors first..last (inclusive, as a GPT stores them).
struct GptEntry {
  uint64_t first = 0, last = 0;
};

inline uint32_t crc32(std::span<const uint8_t> bytes) { return ~ssdprobe::lvm_crc(0xffffffffu, bytes); }

// A GPT disk of `sectors` sectors with `slots` entries (a multiple of 4),
// the given ones in slots 1, 2, ... (Linux data type, named "pN"); usable
// sectors from the one after the primary entry array to the one before the
// backup's (34 .. sectors-34 with 128 slots).
inline void write_gpt(const std::string& path, uint64_t sectors, const std::vector<GptEntry>& entries,
                      uint32_t slots = 128) {
  const uint32_t kEntries = slots;
  constexpr uint32_t kEntryBytes = 128;
  constexpr std::array<uint8_t, 16> kLinuxType = {0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47,
                                                  0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4};
  std::vector<uint8_t> array(kEntries * kEntryBytes);
  for (size_t i = 0; i < entries.size(); ++i) {
    uint8_t* e = array.data() + i * kEntryBytes;
    std::copy(kLinuxType.begin(), kLinuxType.end(), e);
    e[16] = static_cast<uint8_t>(i + 1);  // unique GUID
    put_le(e + 32, entries[i].first, 8);
    put_le(e + 40, entries[i].last, 8);
    e[56] = 'p';
    e[58] = static_cast<uint8_t>('0' + (i + 1) % 10);
  }
  const uint64_t array_sectors = array.size() / kSector;  // 32 for 128 slots
  const auto header = [&](uint64_t my_lba, uint64_t other_lba, uint64_t array_lba) {
    Sector h{};
    std::copy_n("EFI PART", 8, h.begin());
    put_le(&h[8], 0x00010000, 4);
    put_le(&h[12], 92, 4);
    put_le(&h[24], my_lba, 8);
    put_le(&h[32], other_lba, 8);
    put_le(&h[40], 2 + array_sectors, 8);            // first usable
    put_le(&h[48], sectors - 2 - array_sectors, 8);  // last usable
    h[56] = 0x42;                                    // disk GUID
    put_le(&h[72], array_lba, 8);
    put_le(&h[80], kEntries, 4);
    put_le(&h[84], kEntryBytes, 4);
    put_le(&h[88], crc32(array), 4);
    put_le(&h[16], crc32(std::span(h).first(92)), 4);
    return h;
  };
  const Image image(path, sectors);
  image.write(0, boot_record({{0xee, 1, static_cast<uint32_t>(std::min<uint64_t>(sectors - 1, UINT32_MAX))}}));
  image.write(kSector, header(1, sectors - 1, 2));
  image.write(2 * kSector, array);
  image.write((sectors - 1 - array_sectors) * kSector, array);
  image.write((sectors - 1) * kSector, header(sectors - 1, 1, sectors - 1 - array_sectors));
}

}  // namespace table_image
