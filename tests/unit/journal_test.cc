// The undo journal as untrusted bytes: a journal round-trips, and every kind
// of damage (truncation, flipped bits, junk, impossible ranges) is reported
// as corrupt or incomplete, never decoded into something to restore.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "safety/journal.h"
#include "safety/journal_dir.h"
#include "safety/journal_index.h"
#include "safety/restore.h"

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
  id.window_length = 65536 + 4096;  // exactly the two records below
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

std::string fmt_name(uint32_t block) { return "block-" + std::to_string(block) + ".ssdpj"; }

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
  CHECK(read_journal_identity(file).window_length == 65536 + 4096);
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

namespace {

// A journal whose identity was crafted: the writer does not judge identities,
// the reader must.
fs::path crafted(const fs::path& file, const JournalIdentity& id, uint64_t record_offset, size_t record_bytes,
                 bool commit) {
  JournalWriter writer(file, id);
  if (record_bytes > 0) writer.append(record_offset, pattern(record_bytes, 3));
  if (commit) writer.commit();
  return file;
}

ErrorCategory rejection(const fs::path& file) {
  try {
    read_journal(file);
  } catch (const Error& e) {
    return e.category();
  }
  return ErrorCategory::internal;  // accepted
}

}  // namespace

TEST_CASE("crafted identities are rejected before any integer is used") {
  Scratch s;
  for (uint32_t block : {0u, 3u, 256u, 1000u, 1u << 17, 0xffffffffu}) {
    INFO("logical block " << block);
    JournalIdentity id = identity();
    id.logical_block = block;
    CHECK(rejection(crafted(s.dir / fmt_name(block), id, 8 << 20, 4096, true)) == ErrorCategory::target);
  }
  JournalIdentity past_end = identity();
  past_end.window_offset = UINT64_MAX - 4095;  // offset + length overflows
  past_end.window_length = 8192;
  CHECK(rejection(crafted(s.dir / "overflow.ssdpj", past_end, UINT64_MAX - 4095, 4096, true)) == ErrorCategory::target);
  JournalIdentity empty = identity();
  empty.window_length = 0;
  CHECK(rejection(crafted(s.dir / "empty.ssdpj", empty, 0, 0, true)) == ErrorCategory::target);
}

TEST_CASE("a window in the first or last MiB is accepted only when --region chose it") {
  Scratch s;
  JournalIdentity first_mib = identity();
  first_mib.window_offset = 0;
  first_mib.window_length = 4096;
  CHECK(rejection(crafted(s.dir / "lba0.ssdpj", first_mib, 0, 4096, true)) == ErrorCategory::target);
  first_mib.region_given = true;
  const JournalContents c = read_journal(crafted(s.dir / "lba0-region.ssdpj", first_mib, 0, 4096, true));
  CHECK(c.committed);
  JournalIdentity last_mib = identity();
  last_mib.window_offset = last_mib.size_bytes - 4096;
  last_mib.window_length = 4096;
  CHECK(rejection(crafted(s.dir / "end.ssdpj", last_mib, last_mib.window_offset, 4096, true)) == ErrorCategory::target);
}

TEST_CASE("records must tile the window exactly") {
  Scratch s;
  const JournalIdentity id = identity();
  // Starts after the window's first byte.
  CHECK(rejection(crafted(s.dir / "gap.ssdpj", id, (8 << 20) + 4096, 4096, true)) == ErrorCategory::target);
  // Committed, but covers only 4 KiB of the 68 KiB window (a 4 KiB restore
  // reported as "restored" for a larger window is how data was lost).
  CHECK(rejection(crafted(s.dir / "short.ssdpj", id, 8 << 20, 4096, true)) == ErrorCategory::target);
  // Runs past the window's end.
  CHECK(rejection(crafted(s.dir / "long.ssdpj", id, 8 << 20, 65536 + 8192, true)) == ErrorCategory::target);
}

TEST_CASE("the state says whether a journal without its commit was ever acted on") {
  Scratch s;
  const auto unmarked = bytes_of(write_journal(s.dir / "g.ssdpj", true));
  fs::path marked_file = s.dir / "h.ssdpj";
  {
    JournalWriter writer(marked_file, identity());
    writer.append(8 << 20, pattern(65536, 1));
    writer.append((8 << 20) + 65536, pattern(4096, 2));
    writer.commit();
    writer.mark_writes_started();
  }
  const auto marked = bytes_of(marked_file);
  REQUIRE(marked.size() == unmarked.size());
  CHECK(read_journal(marked_file).writes_may_have_started);
  // The tail (the commit) lost: only the marked journal may have been acted on.
  const size_t cut = marked.size() - 24;
  save(s.dir / "cut-unmarked.ssdpj", std::vector<char>(unmarked.begin(), unmarked.begin() + static_cast<long>(cut)));
  save(s.dir / "cut-marked.ssdpj", std::vector<char>(marked.begin(), marked.begin() + static_cast<long>(cut)));
  const JournalContents a = read_journal(s.dir / "cut-unmarked.ssdpj");
  const JournalContents b = read_journal(s.dir / "cut-marked.ssdpj");
  CHECK_FALSE(a.committed);
  CHECK_FALSE(a.writes_may_have_started);
  CHECK_FALSE(b.committed);
  CHECK(b.writes_may_have_started);
  CHECK(b.recorded_bytes() == 65536 + 4096);
}

TEST_CASE("a journal read through its descriptor ignores what is put at its name") {
  Scratch s;
  const fs::path file = write_journal(s.dir / "i.ssdpj", true);
  const UniqueFd fd = open_journal_for_reading(file);
  JournalIdentity other = identity();
  other.path = "/dev/sdq";
  fs::remove(file);
  crafted(file, other, 8 << 20, 65536 + 4096, true);  // swapped in at the same name
  CHECK(read_journal(fd.get(), file.string()).identity.path == "/dev/loop9");
  CHECK(read_journal(file).identity.path == "/dev/sdq");
  CHECK_FALSE(remove_journal_if_same(file, fd.get()));  // never deletes the impostor
  CHECK(fs::exists(file));
}

TEST_CASE("a symlink or FIFO under a journal's name is refused without blocking") {
  Scratch s;
  const fs::path real = write_journal(s.dir / "j.ssdpj", true);
  fs::create_symlink(real, s.dir / "link.ssdpj");
  CHECK_THROWS_AS(open_journal_for_reading(s.dir / "link.ssdpj"), Error);
  REQUIRE(::mkfifo((s.dir / "fifo.ssdpj").c_str(), 0600) == 0);
  CHECK_THROWS_AS(open_journal_for_reading(s.dir / "fifo.ssdpj"), Error);  // would hang without O_NONBLOCK
  const auto pending = pending_journals(s.dir);
  REQUIRE(pending.size() == 1);  // only the regular file
  CHECK(pending[0].file == real);
}

TEST_CASE("an identity with non-UTF-8 bytes round-trips exactly") {
  Scratch s;
  JournalIdentity id = identity();
  id.path = "/srv/disk\xff\x01.img";
  id.canonical_path = id.path;
  id.model = "Model\x1b[2J";  // valid UTF-8 with a control character: kept as is
  id.serial = std::string("S\xc0\xaf", 3);  // an overlong form
  const fs::path file = s.dir / "bytes.ssdpj";
  {
    JournalWriter writer(file, id);
    writer.append(8 << 20, pattern(65536, 1));
    writer.append((8 << 20) + 65536, pattern(4096, 2));
    writer.commit();
  }
  const JournalContents c = read_journal(file);
  CHECK(c.identity.path == id.path);
  CHECK(c.identity.canonical_path == id.canonical_path);
  CHECK(c.identity.model == id.model);
  CHECK(c.identity.serial == id.serial);
}

namespace {

// A 16 MiB "device" file holding, in the journal's window, the journal's
// saved content with `changes` (offset, length) overwritten by other bytes.
fs::path device_file(const fs::path& file, const std::vector<std::pair<uint64_t, size_t>>& changes) {
  std::vector<char> bytes(16 << 20, 'x');
  const auto saved1 = pattern(65536, 1), saved2 = pattern(4096, 2);
  std::memcpy(bytes.data() + (8 << 20), saved1.data(), saved1.size());
  std::memcpy(bytes.data() + (8 << 20) + 65536, saved2.data(), saved2.size());
  for (const auto& [offset, length] : changes) std::memset(bytes.data() + offset, 't', length);
  save(file, bytes);
  return file;
}

struct OpenJournal {
  UniqueFd fd;
  JournalContents contents;
  explicit OpenJournal(const fs::path& file)
      : fd(open_journal_for_reading(file)), contents(read_journal(fd.get(), file.string())) {}
};

}  // namespace

TEST_CASE("a restore writes back only the blocks that differ from the journal, then verifies all") {
  Scratch s;
  const OpenJournal journal(write_journal(s.dir / "r.ssdpj", true));
  const uint64_t first = (8 << 20) + 1024, second = (8 << 20) + 65536;
  const fs::path device = device_file(s.dir / "device", {{first, 512}, {second, 4096}});
  const UniqueFd fd(::open(device.c_str(), O_RDWR | O_CLOEXEC));
  RestoreBuffers buffers;
  const RestoreReport report = restore_records(fd.get(), journal.fd.get(), "r.ssdpj", journal.contents, buffers);
  CHECK(report.bytes == 65536 + 4096);
  CHECK(report.bytes_written == 512 + 4096);
  CHECK(report.writes == 2);
  CHECK(report.message == "restored and verified 69632 bytes in 2 ranges (4608 bytes written back, 65024 already as "
                          "saved)");
  CHECK(bytes_of(device) == bytes_of(device_file(s.dir / "expected", {})));
}

TEST_CASE("a restore whose writes fail names exactly the byte ranges not restored and why") {
  Scratch s;
  const OpenJournal journal(write_journal(s.dir / "w.ssdpj", true));
  const uint64_t first = (8 << 20) + 1024, second = (8 << 20) + 65536 + 512;
  const fs::path device = device_file(s.dir / "device", {{first, 1024}, {second, 512}});
  const UniqueFd read_only(::open(device.c_str(), O_RDONLY | O_CLOEXEC));  // every write fails: EBADF
  RestoreBuffers buffers;
  try {
    restore_records(read_only.get(), journal.fd.get(), "w.ssdpj", journal.contents, buffers);
    FAIL("the restore did not report its failed writes");
  } catch (const Error& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(e.category() == ErrorCategory::io);
    CHECK(message.find("1536 bytes of the window do not hold the saved content: bytes 8389632 to 8390656 (writing "
                       "them failed: Bad file descriptor), bytes 8454656 to 8455168 (writing them failed: Bad file "
                       "descriptor); the other 68096 bytes do; the journal w.ssdpj is kept") == 0);
  }
}

TEST_CASE("a journal marked restored leaves the index of pending journals even when it cannot be deleted") {
  Scratch s;
  const fs::path index = s.dir / "index", journals = s.dir / "journals";
  fs::create_directories(journals);
  const fs::path file = write_journal(journals / "m.ssdpj", true);
  register_journal(index, file);
  REQUIRE(indexed_pending_journals(index).size() == 1);
  UniqueFd fd(::open(file.c_str(), O_RDWR | O_CLOEXEC));
  // Deleting fails: the name now refers to another file.
  fs::rename(file, journals / "m.kept");
  std::ofstream(file) << "not the journal";
  RestoreReport report;
  CHECK_FALSE(retire_journal(file, fd.get(), index, report));
  CHECK(report.journal_kept);
  CHECK(report.message.find("no longer listed as pending") != std::string::npos);
  // With the journals' filesystem gone (here: its directory), nothing is
  // left listed to block a write run.
  fs::remove_all(journals);
  CHECK(indexed_pending_journals(index).empty());
}

TEST_CASE("an index entry whose journal is marked restored is dropped by the next reader") {
  Scratch s;
  const fs::path index = s.dir / "index";
  const fs::path file = write_journal(s.dir / "n.ssdpj", true);
  register_journal(index, file);
  {
    UniqueFd fd(::open(file.c_str(), O_RDWR | O_CLOEXEC));
    mark_journal_restored(fd.get(), file.string());  // and killed before its entry was removed
  }
  CHECK(indexed_pending_journals(index).empty());
  CHECK(fs::is_empty(index));
}

TEST_CASE("restore --forget drops the index entry of a journal that is gone, after saying so and asking") {
  Scratch s;
  const fs::path index = s.dir / "index", mounted = s.dir / "mnt";
  fs::create_directories(mounted);
  const fs::path file = write_journal(mounted / "f.ssdpj", true);
  register_journal(index, file);
  const fs::path said = s.dir / "said.txt";
  std::FILE* out = std::fopen(said.c_str(), "w");
  REQUIRE(out != nullptr);
  const Confirmation yes{true, false, nullptr, out};

  // The journal is there: it is to be restored, not forgotten.
  try {
    forget_journal_entry(index, file, yes);
    FAIL("forgot a journal that is there");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("ssdprobe restore " + file.string()) != std::string::npos);
  }
  CHECK(indexed_pending_journals(index).size() == 1);

  // Its filesystem is gone (here: the directory): the entry blocks every run.
  fs::remove_all(mounted);
  REQUIRE(indexed_pending_journals(index).size() == 1);
  CHECK_FALSE(indexed_pending_journals(index)[0].readable);
  CHECK(indexed_pending_journals(index)[0].problem.find("ssdprobe restore --forget " + file.string()) !=
        std::string::npos);
  // Not confirmed (no terminal, no --yes): kept.
  CHECK_THROWS_AS(forget_journal_entry(index, file, {false, false, nullptr, out}), Error);
  CHECK(indexed_pending_journals(index).size() == 1);
  const std::string message = forget_journal_entry(index, file, yes);
  std::fclose(out);
  CHECK(message.find("forgot the journal " + file.string()) == 0);
  CHECK(indexed_pending_journals(index).empty());
  std::ifstream in(said);
  const std::string shown{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  CHECK(shown.find("ssdprobe will FORGET the journal " + file.string()) != std::string::npos);
  CHECK(shown.find("its directory is not there") != std::string::npos);

  // Nothing left to forget.
  try {
    forget_journal_entry(index, file, {true, false, nullptr, nullptr});
    FAIL("forgot an entry twice");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::target);
  }
}
