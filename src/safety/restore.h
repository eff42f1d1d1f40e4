// Puts a journal's saved content back on its device and proves it: every
// range is written, flushed, read back and checksummed against the journal.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "safety/journal.h"

namespace ssdprobe {

struct RestoreReport {
  uint64_t records = 0;
  uint64_t bytes = 0;
  bool nothing_to_restore = false;  // journal never committed: the device was not written
  std::string message;
};

// Restores `contents` (already validated) through `fd`, an O_DIRECT
// descriptor open for writing on the journal's device. Throws Error(io) if a
// range cannot be written or does not read back identically.
RestoreReport restore_records(int fd, const std::filesystem::path& journal, const JournalContents& contents);

// `ssdprobe restore JOURNAL [--device PATH]`: validates the whole journal,
// checks that the device is the one journaled (size, serial), restores,
// verifies, and deletes the journal once verified.
RestoreReport restore_journal(const std::filesystem::path& journal, const std::string& device_override);

// Journals in `dir` that belong to the device with this path or rdev and
// still hold content to restore.
std::vector<std::filesystem::path> pending_journals(const std::filesystem::path& dir, const std::string& path,
                                                    uint64_t rdev);

}  // namespace ssdprobe
