// The undo journal of a write run: the original content of every range
// ssdprobe will write, saved on another filesystem before the first write.
//
// File layout (integers little-endian):
//   header  "SSDPJRN1", u32 version=1, u32 identity_len, identity (JSON), u32 crc32c(all before)
//   record  u32 'REC1', u64 offset, u32 length, u32 crc32c(data), u32 crc32c(the 20 bytes before), data
//   commit  u32 'CMT1', u64 records, u64 bytes, u32 crc32c(the 20 bytes before)
// The commit is written and fsynced before the device is touched, so a
// journal without a commit proves the device was never written. Readers treat
// the file as untrusted bytes: every length is bounded, every checksum
// checked, and nothing is restored until the whole journal has been read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/unique_fd.h"

namespace ssdprobe {

struct JournalIdentity {
  std::string path;             // the device as the user named it
  uint64_t rdev = 0;            // st_rdev of a block device (0 for files)
  uint64_t size_bytes = 0;
  uint32_t logical_block = 512;
  std::string model, serial;
  uint64_t window_offset = 0, window_length = 0;
  std::string created_at;
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
  std::string incomplete_reason;  // why there is no commit (truncated where)
};

constexpr uint32_t kJournalMaxRecord = 16u << 20;

class JournalWriter {
 public:
  // Creates `file` (must not exist) and writes the header.
  JournalWriter(const std::filesystem::path& file, const JournalIdentity& identity);
  void append(uint64_t offset, std::span<const std::byte> data);
  // Writes the commit record and fsyncs file and directory.
  void commit();
  const std::filesystem::path& path() const { return path_; }

 private:
  void write_all(std::span<const std::byte> bytes);
  std::filesystem::path path_;
  UniqueFd fd_;
  uint64_t records_ = 0, bytes_ = 0;
};

// Reads and validates the whole journal (every checksum). Throws
// Error(target) for a file that is not a journal, a corrupt header or record,
// or trailing bytes after the commit; a journal that simply stops (crash
// while journaling) is returned with committed == false.
JournalContents read_journal(const std::filesystem::path& file);
// Reads only the header (cheap): for finding journals of a device.
JournalIdentity read_journal_identity(const std::filesystem::path& file);
// Reads `record`'s data from the journal and checks its checksum.
std::vector<std::byte> read_record_data(const std::filesystem::path& file, const JournalRecord& record);

}  // namespace ssdprobe
