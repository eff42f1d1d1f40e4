// The undo journal of a write run: the original content of every byte
// ssdprobe will write, saved on another filesystem before the first write.
//
// File layout (integers little-endian), version 2:
//   header  "SSDPJRN1", u32 version=2, u32 state, u32 identity_len, identity (JSON),
//           u32 crc32c(every header byte before it except `state`)
//   record  u32 'REC1', u64 offset, u32 length, u32 crc32c(data), u32 crc32c(the 20 bytes before), data
//   commit  u32 'CMT1', u64 records, u64 bytes, u32 crc32c(the 20 bytes before)
// `state` (byte 12) is kJournaling while the window is being copied, and is
// rewritten in place to kWritesMayHaveStarted after the commit is on disk and
// before the device is touched, and to kRestored once the window was written
// back and verified, before the journal is deleted: a journal that could not
// be deleted then (append-only directory, EIO, a read-only remount) is known
// to be done, and restoring it again would overwrite newer data. So a journal without a commit is known never
// to have been acted on only while its state still says kJournaling: a
// committed journal whose tail was lost (truncation, a bad copy) still says
// the device may hold test data. Version 1 journals (no state) are read too.
//
// A zone journal (a --write run on a host-managed zoned device, safety/
// zone_reset.h) lists in its identity the zones the run may write
// ("reset_zones"); it has no records, and its commit counts none: the
// zones were empty, so a zone reset gives them back exactly. Its window is
// the span of those zones, for the overlap checks. Journals without the
// field are window journals, as before.
//
// Readers treat the file as untrusted bytes: every length and integer is
// range-checked before use, every checksum verified, the identity's window
// obeys the same rules a write run does, records must tile the window from
// its first byte, and a committed journal must cover it exactly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/unique_fd.h"

namespace ssdprobe {

// A zone a zone journal may reset, in bytes from the target's first byte.
struct ZoneRange {
  uint64_t start = 0, length = 0;
  bool operator==(const ZoneRange&) const = default;
};

// The device a journal belongs to, as bound when it was made. restore refuses
// a device that differs in any field (journal_identity.h compares them).
struct JournalIdentity {
  std::string path;              // the device as the user named it
  std::string canonical_path;    // absolute, symlinks resolved, at journal time
  uint64_t rdev = 0;             // st_rdev of a block device (0 for files)
  uint64_t size_bytes = 0;
  uint32_t logical_block = 512;
  std::string model, serial;
  std::string wwid;              // sysfs wwid (WWN, EUI-64 or NGUID) where the kernel has one
  std::string disk;              // whole-disk name ("sda"), empty for files
  uint64_t disk_rdev = 0;        // st_rdev of the whole disk (0 for files)
  uint64_t partition_start = 0;  // the target's first byte on its disk
  uint64_t backing_dev = 0;      // file targets: the file; loop devices: the backing file
  uint64_t backing_ino = 0;
  uint64_t backing_offset = 0;   // loop devices: where the loop starts in its backing file (0 for files)
  // Journals made before ssdprobe recorded them lack these two: the loop
  // offset is then unknown (compared conservatively), and the test data on
  // the device carries no tag (core/probe_data.h) that restore could know.
  bool backing_offset_known = true;
  bool probe_data_tagged = true;
  uint64_t window_offset = 0, window_length = 0;
  bool region_given = false;     // --region chose the window: it may touch the first and last MiB
  std::string created_at;
  // A zone journal's zones (empty for a window journal): restore resets
  // exactly these, each inside the window, in ascending order.
  std::vector<ZoneRange> reset_zones;
};

struct JournalRecord {
  uint64_t offset = 0;
  uint32_t length = 0;
  uint32_t crc = 0;
  uint64_t file_position = 0;   // where the data starts in the journal file
};

struct JournalContents {
  JournalIdentity identity;
  std::vector<JournalRecord> records;
  bool committed = false;
  bool writes_may_have_started = false;  // state field; true for a version 1 journal with a commit
  bool restored = false;                 // state field: written back and verified once; deleting it failed
  std::string incomplete_reason;         // why there is no commit (truncated where)
  uint64_t recorded_bytes() const;
};

constexpr uint32_t kJournalMaxRecord = 16u << 20;
// The first and last MiB of a device (partition tables) are never in a
// default window; a journal says when --region chose otherwise.
constexpr uint64_t kProtectedEdgeBytes = 1u << 20;

class JournalWriter {
 public:
  // Creates `file` (must not exist; never through a symlink), mode 0600, and
  // writes the header with state kJournaling.
  JournalWriter(const std::filesystem::path& file, const JournalIdentity& identity);
  void append(uint64_t offset, std::span<const std::byte> data);
  // Writes the commit record and fsyncs file and directory (both checked).
  void commit();
  // After commit: records in place that the device may now be written, and
  // fsyncs. Call before the first write to the device.
  void mark_writes_started();
  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_.get(); }
  // The open journal (read-write), for reading it back at restore time
  // without resolving its name again.
  UniqueFd release() { return std::move(fd_); }

 private:
  void write_all(std::span<const std::byte> bytes);
  std::filesystem::path path_;
  UniqueFd fd_;
  uint64_t records_ = 0, bytes_ = 0;
  bool committed_ = false;
};

// Reads and validates the whole journal open at `fd` (`name` is for
// messages). Throws Error(target) for a file that is not a journal, a corrupt
// header or record, an impossible identity or range, records that do not
// tile the window, or trailing bytes after the commit; a journal that simply
// stops (crash while journaling, or a lost tail) is returned with
// committed == false.
JournalContents read_journal(int fd, const std::string& name);
// Reads only the header (cheap): for finding journals of a device, and
// whether it is marked restored (done; only its deletion failed).
struct JournalHead {
  JournalIdentity identity;
  bool restored = false;
};
JournalHead read_journal_head(int fd, const std::string& name);
JournalIdentity read_journal_identity(int fd, const std::string& name);
// Rewrites the state in place to "restored" and fsyncs: after a verified
// restore, before deleting the journal. Throws for a version 1 journal (no
// state field) and when the write or fsync fails.
void mark_journal_restored(int fd, const std::string& name);
// Reads `record`'s data from the journal through `buffer`, a piece of at
// most buffer.size() bytes at a time, handing each to `take` with the device
// offset it belongs at, and checks the record's checksum at the end: a
// restore needs no more memory than its buffer however large the record.
// Throws Error(target) when the data is shorter or differs from what was
// validated (the pieces already taken are the caller's to account for).
using RecordPieceFn = std::function<void(uint64_t device_offset, std::span<const std::byte> piece)>;
void for_each_record_piece(int fd, const std::string& name, const JournalRecord& record, std::span<std::byte> buffer,
                           const RecordPieceFn& take);
// Reads `record`'s data whole and checks its checksum.
std::vector<std::byte> read_record_data(int fd, const std::string& name, const JournalRecord& record);

// The same by path, for tools and tests: opened read-only, never through a
// symlink, and only a regular file.
JournalContents read_journal(const std::filesystem::path& file);
JournalIdentity read_journal_identity(const std::filesystem::path& file);
std::vector<std::byte> read_record_data(const std::filesystem::path& file, const JournalRecord& record);

// Opens an existing journal for reading: O_NOFOLLOW|O_NONBLOCK (a FIFO or a
// symlink planted under a journal's name can neither hang nor redirect the
// read), then fstat: only a regular file. Throws Error(target | refused).
UniqueFd open_journal_for_reading(const std::filesystem::path& file);

}  // namespace ssdprobe
