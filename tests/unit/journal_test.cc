// The undo journal as untrusted bytes: a journal round-trips, and every kind
// of damage (truncation, flipped bits, junk, impossible ranges) is reported
// as corrupt or incomplete, never decoded into something to restore.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "safety/journal.h"

using namespace ssdprobe;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("ssdprobe-journal-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
};

JournalIdentity identity() {
  JournalIdentity id;
  id.path = "/dev/loop9";
  id.rdev = 0x700009;
  id.size_bytes = 64 << 20;
  id.window_offset = 8 << 20;
  id.window_length = 1 << 20;
  id.serial = "S123";
  return id;
}

std::vector<std::byte> pattern(size_t n, uint64_t seed) {
  Random random(seed);
  std::vector<std::byte> data(n);
  for (auto& b : data) b = static_cast<std::byte>(random.next());
  return data;
}

fs::path write_journal(const fs::path& file, bool commit) {
  JournalWriter writer(file, identity());
  writer.append(8 << 20, pattern(65536, 1));
  writer.append((8 << 20) + 65536, pattern(4096, 2));
  if (commit) writer.commit();
  return file;
}

std::vector<char> bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void save(const fs::path& file, const std::vector<char>& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("a committed journal reads back with identity, records and data") {
  Scratch s;
  const fs::path file = write_journal(s.dir / "a.ssdpj", true);
  const JournalContents c = read_journal(file);
  CHECK(c.committed);
  CHECK(c.identity.path == "/dev/loop9");
  CHECK(c.identity.serial == "S123");
  REQUIRE(c.records.size() == 2);
  CHECK(c.records[1].offset == (8 << 20) + 65536);
  CHECK(read_record_data(file, c.records[0]) == pattern(65536, 1));
  CHECK(read_journal_identity(file).window_length == (1 << 20));
}

TEST_CASE("a journal without its commit is incomplete, not corrupt") {
  Scratch s;
  const JournalContents c = read_journal(write_journal(s.dir / "b.ssdpj", false));
  CHECK_FALSE(c.committed);
  CHECK(c.incomplete_reason.find("without a commit") != std::string::npos);
}

TEST_CASE("every truncation is either incomplete (before the commit) or corrupt") {
  Scratch s;
  const auto whole = bytes_of(write_journal(s.dir / "c.ssdpj", true));
  const fs::path cut = s.dir / "cut.ssdpj";
  for (size_t length = 0; length < whole.size(); length += (length < 200 ? 1 : 997)) {
    INFO("length " << length);
    save(cut, std::vector<char>(whole.begin(), whole.begin() + static_cast<long>(length)));
    try {
      const JournalContents c = read_journal(cut);
      CHECK_FALSE(c.committed);
    } catch (const Error& e) {
      CHECK(e.category() == ErrorCategory::target);
    }
  }
}

TEST_CASE("a flipped byte anywhere is caught") {
  Scratch s;
  const auto whole = bytes_of(write_journal(s.dir / "d.ssdpj", true));
  const fs::path bad = s.dir / "bad.ssdpj";
  for (size_t at = 0; at < whole.size(); at += (at < 300 ? 1 : 1499)) {
    INFO("byte " << at);
    auto damaged = whole;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    save(bad, damaged);
    bool rejected = false;
    try {
      rejected = !read_journal(bad).committed;
    } catch (const Error&) {
      rejected = true;
    }
    CHECK(rejected);
  }
}

TEST_CASE("junk after the commit and random files are rejected") {
  Scratch s;
  auto whole = bytes_of(write_journal(s.dir / "e.ssdpj", true));
  whole.push_back('x');
  save(s.dir / "junk.ssdpj", whole);
  CHECK_THROWS_AS(read_journal(s.dir / "junk.ssdpj"), Error);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto noise = pattern(seed * 37, seed);
    save(s.dir / "noise.ssdpj", std::vector<char>(reinterpret_cast<const char*>(noise.data()),
                                                  reinterpret_cast<const char*>(noise.data()) + noise.size()));
    CHECK_THROWS_AS(read_journal(s.dir / "noise.ssdpj"), Error);
  }
}

TEST_CASE("an existing journal file is never overwritten") {
  Scratch s;
  write_journal(s.dir / "f.ssdpj", true);
  CHECK_THROWS_AS(JournalWriter(s.dir / "f.ssdpj", identity()), Error);
}
