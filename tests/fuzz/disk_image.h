// The input form of the disk_image fuzz target, shared by the target
// (disk_image.cc) and its tool (disk_image_tool.cc: real image <-> input).
//
// A disk image is large and nearly all zeros: a partition table at its start
// and end, superblocks at a few places. The input therefore describes an
// image instead of holding it: a header, then chunks of bytes to write at
// sector offsets into an otherwise zero (sparse) memfd of the stated size.
// libFuzzer mutates a few KiB; the image can be up to 2 TiB.
//
// Layout (all integers little-endian):
//   byte 0      bits 0-2: logical block 512 << n (512 B .. 64 KiB)
//               bit 3: repair GPT CRCs (headers at LBA 1 and the last LBA,
//                      their entry arrays) after the chunks are written
//               bit 4: repair md v1.x sb_csum of every superblock a chunk wrote
//               bit 5: repair LVM label and metadata-area CRCs likewise
//   byte 1      bits 0-2: read page (kReadPages[n]; 0 = not determined)
//               bits 3-5: write unit (kWriteUnits[n]; 0 = not determined)
//               bits 6-7: physical block = logical block << n (at most 64 KiB)
//   byte 2      bits 0-3: erase block (kEraseBlocks[n]; 0 = not determined)
//   bytes 3-6   image size in 512-byte sectors
//   then chunks, to the end of the input:
//     4 bytes   sector: bits 0-30 a 512-byte sector number, counted from the
//               image's start, or (bit 31 set) back from its end, so a
//               backup GPT or an md 1.0 superblock stays at the end when
//               the fuzzer changes the size
//     2 bytes   length in bytes
//     length    the bytes (fewer when the input ends first)
// A chunk is clipped at the image's end; later chunks overwrite earlier
// ones. The repairs let mutated tables and superblocks pass their checksums
// (as the md_superblock and lvm_label targets do), so the fuzzer reaches
// what lies behind them; without the flags a bad checksum stays bad.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "layout/lvm_label.h"
#include "layout/md_superblock.h"
#include "report/result.h"
#include "run/audit_phase.h"
#include "run/document.h"
#include "run/verdict_phase.h"

namespace disk_image {

constexpr size_t kHeaderBytes = 7;
constexpr size_t kChunkHeaderBytes = 6;
constexpr uint32_t kFromEnd = 0x80000000u;
constexpr uint64_t kSector = 512;
constexpr uint64_t kKiB = 1024, kMiB = 1024 * 1024;

constexpr uint8_t kRepairGpt = 1 << 3;
constexpr uint8_t kRepairMd = 1 << 4;
constexpr uint8_t kRepairLvm = 1 << 5;

// The units the audit checks against (0: not determined). Powers of two and
// the 3 x 2^n sizes of TLC drives, so wanted_alignment's lcm sees both.
constexpr std::array<uint64_t, 8> kReadPages = {0, 4 * kKiB, 8 * kKiB, 16 * kKiB, 32 * kKiB, 64 * kKiB, 12 * kKiB,
                                                48 * kKiB};
constexpr std::array<uint64_t, 8> kWriteUnits = {0, 4 * kKiB, 16 * kKiB, 64 * kKiB, 128 * kKiB, 256 * kKiB, 48 * kKiB,
                                                 96 * kKiB};
constexpr std::array<uint64_t, 16> kEraseBlocks = {0,        128 * kKiB, 256 * kKiB, 512 * kKiB, 1 * kMiB, 2 * kMiB,
                                                   4 * kMiB, 8 * kMiB,   16 * kMiB,  32 * kMiB,  64 * kMiB, 1536 * kKiB,
                                                   3 * kMiB, 6 * kMiB,   12 * kMiB,  24 * kMiB};

// The largest GPT entry array whose CRC the repair recomputes (ssdprobe has
// libblkid read no larger one: blkid_probe.h).
constexpr uint64_t kMaxRepairedEntryArray = 16 * kMiB;

inline uint64_t get_le(const uint8_t* p, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | p[i];
  return value;
}
inline void put_le(uint8_t* p, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}

struct Chunk {
  uint64_t offset = 0;  // absolute, from the image's start
  std::span<const uint8_t> bytes;
};

struct Input {
  std::array<uint8_t, kHeaderBytes> header{};
  uint32_t logical_block = 512;
  uint32_t physical_block = 512;
  std::optional<uint64_t> read_page, write_unit, erase_block;
  uint64_t size_bytes = 0;
  std::vector<Chunk> chunks;
  bool repair(uint8_t flag) const { return (header[0] & flag) != 0; }
};

inline std::optional<uint64_t> unit(uint64_t bytes) { return bytes ? std::optional<uint64_t>(bytes) : std::nullopt; }

// nullopt when the input is shorter than the header.
inline std::optional<Input> parse(std::span<const uint8_t> data) {
  if (data.size() < kHeaderBytes) return std::nullopt;
  Input in;
  std::copy_n(data.begin(), kHeaderBytes, in.header.begin());
  in.logical_block = 512u << (data[0] & 7);
  in.physical_block = std::min<uint32_t>(in.logical_block << (data[1] >> 6), 65536);
  in.read_page = unit(kReadPages[data[1] & 7]);
  in.write_unit = unit(kWriteUnits[(data[1] >> 3) & 7]);
  in.erase_block = unit(kEraseBlocks[data[2] & 15]);
  in.size_bytes = get_le(&data[3], 4) * kSector;
  size_t at = kHeaderBytes;
  while (at + kChunkHeaderBytes <= data.size()) {
    const uint32_t sector = static_cast<uint32_t>(get_le(&data[at], 4));
    const size_t length = std::min<size_t>(get_le(&data[at + 4], 2), data.size() - at - kChunkHeaderBytes);
    const auto bytes = data.subspan(at + kChunkHeaderBytes, length);
    at += kChunkHeaderBytes + length;
    const uint64_t from = uint64_t{sector & ~kFromEnd} * kSector;
    if ((sector & kFromEnd) == 0) {
      in.chunks.push_back({from, bytes});
    } else if (from <= in.size_bytes) {
      in.chunks.push_back({in.size_bytes - from, bytes});
    }  // (a chunk counted back past the image's start is dropped)
  }
  return in;
}

// An empty memfd (sparse: a hole reads as zeros and takes no memory).
inline int make_memfd(const char* name) {
  const int fd = ::memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  return fd;
}

inline bool pwrite_all(int fd, const uint8_t* data, size_t size, uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

// Up to `length` bytes at `offset` (fewer at the image's end).
inline std::vector<uint8_t> pread_some(int fd, uint64_t offset, uint64_t length, uint64_t size_bytes) {
  if (offset >= size_bytes) return {};
  std::vector<uint8_t> bytes(std::min(length, size_bytes - offset));
  const ssize_t n = ::pread(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
  bytes.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return bytes;
}

// The image the input describes, in `fd` (emptied first). False when the
// memfd cannot take it.
inline bool write_image(int fd, const Input& in) {
  if (::ftruncate(fd, 0) != 0 || ::ftruncate(fd, static_cast<off_t>(in.size_bytes)) != 0) return false;
  for (const auto& chunk : in.chunks) {
    if (chunk.offset >= in.size_bytes) continue;
    const size_t length = std::min<uint64_t>(chunk.bytes.size(), in.size_bytes - chunk.offset);
    if (!pwrite_all(fd, chunk.bytes.data(), length, chunk.offset)) return false;
  }
  return true;
}

// The 512-byte sectors any chunk wrote into: the only places where a
// structure can start (everything else is zeros).
inline std::set<uint64_t> written_sectors(const Input& in) {
  std::set<uint64_t> sectors;
  for (const auto& chunk : in.chunks) {
    if (chunk.offset >= in.size_bytes || chunk.bytes.empty()) continue;
    const uint64_t end = std::min<uint64_t>(in.size_bytes, chunk.offset + chunk.bytes.size());
    for (uint64_t s = chunk.offset / kSector; s * kSector < end; ++s) sectors.insert(s * kSector);
  }
  return sectors;
}

// CRC-32 as GPT uses it (zlib's): lvm_crc is the same reflected CRC-32
// register without the initial and final inversion.
inline uint32_t crc32(std::span<const uint8_t> bytes) { return ~ssdprobe::lvm_crc(0xffffffffu, bytes); }

// drivers/md/md.c calc_sb_1_csum over 256 + 2 * max_dev bytes.
inline void repair_md(int fd, uint64_t at, uint64_t size_bytes) {
  auto sb = pread_some(fd, at, ssdprobe::kMdSuperblockBytes, size_bytes);
  if (sb.size() < 256 || get_le(&sb[0], 4) != ssdprobe::kMdSuperblockMagic) return;
  const uint64_t max_dev = get_le(&sb[220], 4);
  if (256 + 2 * max_dev > sb.size()) return;
  uint64_t sum = 0;
  size_t offset = 0;
  const size_t bytes = 256 + 2 * max_dev;
  for (; offset + 4 <= bytes; offset += 4) sum += offset == 216 ? 0 : get_le(&sb[offset], 4);
  if (offset + 2 <= bytes) sum += get_le(&sb[offset], 2);
  uint8_t csum[4];
  put_le(csum, (sum & 0xffffffffu) + (sum >> 32), 4);
  pwrite_all(fd, csum, 4, at + 216);
}

// A label sector's CRC over its bytes 20..511.
inline void repair_lvm_label(int fd, uint64_t at, uint64_t size_bytes) {
  const auto sector = pread_some(fd, at, kSector, size_bytes);
  if (sector.size() < kSector || std::memcmp(sector.data(), "LABELONE", 8) != 0) return;
  uint8_t crc[4];
  put_le(crc, ssdprobe::lvm_crc(ssdprobe::kLvmInitialCrc, std::span(sector).subspan(20)), 4);
  pwrite_all(fd, crc, 4, at + 16);
}

// A metadata area header: raw_locn 0's text CRC (when its location is in
// range, wrapping as lvm_metadata_text reads it), then the header's CRC.
inline void repair_lvm_area(int fd, uint64_t at, uint64_t size_bytes) {
  const auto header = pread_some(fd, at, kSector, size_bytes);
  if (header.size() < kSector || std::memcmp(&header[4], " LVM2 x[5A%r0N*>", 16) != 0) return;
  const uint64_t area_size = get_le(&header[32], 8);
  const uint64_t offset = get_le(&header[40], 8);
  const uint64_t size = get_le(&header[48], 8);
  auto area = pread_some(fd, at, std::clamp<uint64_t>(area_size, kSector, 4 * kMiB), size_bytes);
  if (area.size() < kSector) return;
  if (area_size >= 1024 && offset >= kSector && offset < area_size && size > 0 && size <= area_size - kSector) {
    const uint64_t first = std::min(size, area_size - offset);
    const uint64_t wrap = size - first;
    if (offset + first <= area.size() && kSector + wrap <= area.size()) {
      const uint32_t crc = ssdprobe::lvm_crc(ssdprobe::lvm_crc(ssdprobe::kLvmInitialCrc,
                                                               std::span(area).subspan(offset, first)),
                                             std::span(area).subspan(kSector, wrap));
      put_le(&area[56], crc, 4);
    }
  }
  put_le(&area[0], ssdprobe::lvm_crc(ssdprobe::kLvmInitialCrc, std::span(area).subspan(4, 508)), 4);
  pwrite_all(fd, area.data(), kSector, at);
}

struct GptHeader {
  uint64_t entries_offset = 0;  // bytes
  uint64_t entries_bytes = 0;   // as libblkid computes it: count x entry size
  uint32_t header_bytes = 0;
};

// The GPT header at byte `at`, read with `logical_block` (nullopt without
// the signature).
inline std::optional<GptHeader> gpt_header_at(int fd, uint64_t at, uint32_t logical_block, uint64_t size_bytes) {
  const auto h = pread_some(fd, at, 92, size_bytes);
  if (h.size() < 92 || std::memcmp(h.data(), "EFI PART", 8) != 0) return std::nullopt;
  GptHeader header;
  header.header_bytes = static_cast<uint32_t>(get_le(&h[12], 4));
  const uint64_t lba = get_le(&h[72], 8);
  header.entries_offset = lba <= UINT64_MAX / logical_block ? lba * logical_block : UINT64_MAX;
  header.entries_bytes = get_le(&h[80], 4) * get_le(&h[84], 4);
  return header;
}

// The entry array's CRC and the header's CRC of the GPT header at byte `at`.
inline void repair_gpt(int fd, uint64_t at, uint32_t logical_block, uint64_t size_bytes) {
  const auto header = gpt_header_at(fd, at, logical_block, size_bytes);
  if (!header || header->header_bytes < 92 || header->header_bytes > logical_block) return;
  auto h = pread_some(fd, at, header->header_bytes, size_bytes);
  if (h.size() != header->header_bytes) return;
  if (header->entries_bytes > 0 && header->entries_bytes <= kMaxRepairedEntryArray) {
    const auto entries = pread_some(fd, header->entries_offset, header->entries_bytes, size_bytes);
    if (entries.size() == header->entries_bytes) put_le(&h[88], crc32(entries), 4);
  }
  put_le(&h[16], 0, 4);
  put_le(&h[16], crc32(h), 4);
  pwrite_all(fd, h.data(), h.size(), at);
}

// The repairs the header's flags ask for, md and LVM first (a GPT entry
// array may hold their bytes, and its CRC covers them).
inline void repair_checksums(int fd, const Input& in) {
  if (in.repair(kRepairMd) || in.repair(kRepairLvm)) {
    for (const uint64_t at : written_sectors(in)) {
      if (in.repair(kRepairMd)) repair_md(fd, at, in.size_bytes);
      if (in.repair(kRepairLvm)) {
        repair_lvm_label(fd, at, in.size_bytes);
        repair_lvm_area(fd, at, in.size_bytes);
      }
    }
  }
  if (in.repair(kRepairGpt) && in.size_bytes >= 2 * uint64_t{in.logical_block}) {
    repair_gpt(fd, in.logical_block, in.logical_block, in.size_bytes);
    repair_gpt(fd, in.size_bytes / in.logical_block * in.logical_block - in.logical_block, in.logical_block,
               in.size_bytes);
  }
}

// `ssdprobe audit` on the image in `fd`: the document the command builds
// (add_audit reads the layout through the same open_layout_source a file
// target uses, here /proc/self/fd/N), with the input's units as if they
// came from --units-from, and the recommendations and verdict.
inline ssdprobe::Target image_target(int fd, const Input& in) {
  using namespace ssdprobe;
  Target target;
  target.path = "/proc/self/fd/" + std::to_string(fd);
  target.kind = TargetKind::file;
  target.topology.transport = "file";
  target.topology.logical_block_size = in.logical_block;
  target.topology.physical_block_size = in.physical_block;
  target.topology.size_bytes = in.size_bytes;
  return target;
}

// Whether the image's start holds a table, md, LVM or a filesystem: what
// makes `ssdprobe audit` read it as a disk rather than as a file.
inline bool holds_layout(int fd, const Input& in) {
  return ssdprobe::is_disk_image(image_target(fd, in), ssdprobe::Options{});
}

inline ssdprobe::ResultDocument audit_image(int fd, const Input& in) {
  using namespace ssdprobe;
  const Target target = image_target(fd, in);
  const Options options;
  ResultDocument doc = base_document(options, target);
  auto take = [](DetectedUnit& unit, const std::optional<uint64_t>& bytes) {
    if (!bytes) return;
    unit.bytes = bytes;
    unit.state = UnitState::found;
    unit.evidence = "from the fuzz input's header";
  };
  take(doc.read_page, in.read_page);
  take(doc.write_unit, in.write_unit);
  take(doc.erase_block, in.erase_block);
  add_audit(doc, target, options);
  fill_recommendations(doc);
  return doc;
}

}  // namespace disk_image
