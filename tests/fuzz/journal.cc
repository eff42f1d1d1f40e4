// The undo journal from untrusted bytes, through the path-based readers
// read_journal(path) and read_journal_identity(path): the input is written
// to a scratch file (in $SSDPROBE_FUZZ_SCRATCH, else /dev/shm when there is
// one) and read back. Only
// ssdprobe::Error is an acceptable rejection.
//
// Every header, record and commit carries a CRC-32C, which random mutation
// almost never gets right, so plain mutation would only ever test the
// checksum comparisons. LLVMFuzzerCustomMutator below mutates as libFuzzer
// would and then, for most mutants, recomputes every checksum (and
// sometimes the commit's counts) along the structure it can follow, so the
// fuzzer reaches the identity JSON, the window rules and the record tiling.
// Inputs stay plain journal files: a crash input reproduces as it is.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/crc32c.h"
#include "fuzz_target.h"
#include "safety/journal.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

constexpr uint32_t kRecordMagic = 0x31434552;  // "REC1"
constexpr uint32_t kCommitMagic = 0x31544d43;  // "CMT1"

uint64_t get_le(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
void put_le(uint8_t* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t crc(const uint8_t* p, size_t n, uint32_t seed = 0) {
  return crc32c(std::span(reinterpret_cast<const std::byte*>(p), n), seed);
}

// Recomputes the checksums of whatever journal structure `data` holds (see
// safety/journal.h for the layout); `fix_counts` also makes the commit count
// the records before it.
void fix_checksums(uint8_t* data, size_t size, bool fix_counts) {
  if (size < 12 || std::memcmp(data, "SSDPJRN1", 8) != 0) return;
  const uint64_t version = get_le(data + 8, 4);
  const size_t length_at = version == 1 ? 12 : 16;
  if (size < length_at + 4) return;
  const uint64_t length = get_le(data + length_at, 4);
  const size_t crc_at = length_at + 4 + length;
  if (length > (1u << 16) || crc_at + 4 > size) return;
  uint32_t c = crc(data, 12);
  c = crc(data + length_at, 4, c);
  c = crc(data + length_at + 4, length, c);
  put_le(data + crc_at, c, 4);
  size_t at = crc_at + 4;
  uint64_t records = 0, bytes = 0;
  while (at + 24 <= size) {
    const uint64_t magic = get_le(data + at, 4);
    if (magic == kCommitMagic) {
      if (fix_counts) {
        put_le(data + at + 4, records, 8);
        put_le(data + at + 12, bytes, 8);
      }
      put_le(data + at + 20, crc(data + at, 20), 4);
      return;
    }
    if (magic != kRecordMagic) return;
    const uint64_t record_length = get_le(data + at + 12, 4);
    if (record_length <= size - at - 24) put_le(data + at + 16, crc(data + at + 24, record_length), 4);
    put_le(data + at + 20, crc(data + at, 20), 4);
    at += 24 + record_length;
    ++records;
    bytes += record_length;
    if (at > size) return;
  }
}

// One scratch file per process, rewritten for every input.
struct Scratch {
  fs::path path;
  int fd = -1;
  Scratch() {
    const char* chosen = std::getenv("SSDPROBE_FUZZ_SCRATCH");  // bench/fuzz: a directory it cleans up
    const fs::path dir = chosen != nullptr && *chosen != '\0' ? fs::path(chosen)
                         : fs::is_directory("/dev/shm")       ? fs::path("/dev/shm")
                                                              : fs::temp_directory_path();
    path = dir / ("ssdprobe-fuzz-journal-" + std::to_string(::getpid()));
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
      std::perror(path.c_str());
      std::abort();
    }
  }
  ~Scratch() {
    ::close(fd);
    ::unlink(path.c_str());
  }
  void write(const uint8_t* data, size_t size) {
    if (::ftruncate(fd, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
  }
};

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  // 1 in 8 mutants keeps whatever checksums it has (the checks must hold).
  if (seed % 8 != 0) fix_checksums(data, size, seed % 3 != 0);
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Scratch scratch;
  scratch.write(data, size);
  JournalContents contents;
  const bool read = fuzz::expect_rejection([&] { contents = read_journal(scratch.path); });
  JournalIdentity identity;
  const bool header = fuzz::expect_rejection([&] { identity = read_journal_identity(scratch.path); });
  // Whatever read_journal accepts, its header alone is accepted too, as the same identity.
  if (read) {
    FUZZ_CHECK(header);
    FUZZ_CHECK(identity.window_offset == contents.identity.window_offset);
    FUZZ_CHECK(identity.window_length == contents.identity.window_length);
    FUZZ_CHECK(identity.path == contents.identity.path);
    // Records tile the window from its first byte; a committed journal covers it exactly.
    uint64_t next = contents.identity.window_offset;
    for (const auto& record : contents.records) {
      FUZZ_CHECK(record.offset == next);
      FUZZ_CHECK(record.length != 0 && record.length <= kJournalMaxRecord);
      next += record.length;
    }
    FUZZ_CHECK(contents.recorded_bytes() <= contents.identity.window_length);
    if (contents.committed) FUZZ_CHECK(contents.recorded_bytes() == contents.identity.window_length);
  }
  return 0;
}
