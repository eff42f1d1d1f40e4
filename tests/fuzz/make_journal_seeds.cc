// Writes valid undo journals with the project's own JournalWriter, for the
// journal target's seed corpus (tests/fuzz/corpus/journal/):
//
//   build-fuzz/tests/fuzz/fuzz-make-journal-seeds tests/fuzz/corpus/journal
//
// Small on purpose (a few KB): a 512 B-block window of a few records, with
// and without a commit, with the state rewritten to "writes may have
// started", a 4 KiB-block one away from the device's edges, and a version 1
// journal (no state field) derived from a version 2 one. Deterministic, so
// regenerating gives the same bytes.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "core/crc32c.h"
#include "core/error.h"
#include "safety/journal.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

namespace {

std::vector<std::byte> pattern(size_t n, unsigned seed) {
  std::vector<std::byte> data(n);
  uint32_t x = 2463534242u + seed;
  for (auto& b : data) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::byte>(x);
  }
  return data;
}

JournalIdentity small_identity() {
  JournalIdentity id;
  id.path = "/dev/loop7";
  id.canonical_path = "/dev/loop7";
  id.rdev = 0x700007;
  id.size_bytes = 8192;
  id.logical_block = 512;
  id.model = "SEED";
  id.serial = "S1";
  id.disk = "loop7";
  id.disk_rdev = 0x700007;
  id.window_offset = 1024;
  id.window_length = 1536;
  id.region_given = true;
  id.created_at = "2024-01-01T00:00:00Z";
  return id;
}

void write_small(const fs::path& file, bool commit, bool started) {
  fs::remove(file);
  JournalWriter writer(file, small_identity());
  writer.append(1024, pattern(1024, 1));
  writer.append(2048, pattern(512, 2));
  if (commit) writer.commit();
  if (started) writer.mark_writes_started();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  try {
    const fs::path out = argv[1];
    fs::create_directories(out);
    write_small(out / "seed-committed.ssdpj", true, false);
    write_small(out / "seed-uncommitted.ssdpj", false, false);
    write_small(out / "seed-writes-started.ssdpj", true, true);

    // A 4 KiB-block device of 4 MiB, window in the middle, no --region.
    JournalIdentity id = small_identity();
    id.size_bytes = 4u << 20;
    id.logical_block = 4096;
    id.window_offset = 1u << 20;
    id.window_length = 4096;
    id.region_given = false;
    id.wwid = "eui.0000000000000001";
    id.partition_start = 0;
    const fs::path big = out / "seed-4k-block.ssdpj";
    fs::remove(big);
    {
      JournalWriter writer(big, id);
      writer.append(1u << 20, pattern(4096, 3));
      writer.commit();
    }

    // Version 1: no state field. Bytes 12..15 go, the version says 1, and the
    // header checksum (magic, version, identity length, identity) is redone.
    std::ifstream in(out / "seed-committed.ssdpj", std::ios::binary);
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    bytes.erase(bytes.begin() + 12, bytes.begin() + 16);
    bytes[8] = 1;
    const size_t length = bytes[12] | bytes[13] << 8 | bytes[14] << 16 | size_t{bytes[15]} << 24;
    const uint32_t crc = crc32c(std::as_bytes(std::span(bytes.data(), 16 + length)));
    for (int i = 0; i < 4; ++i) bytes[16 + length + i] = static_cast<uint8_t>(crc >> (8 * i));
    std::ofstream(out / "seed-v1.ssdpj", std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
