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
  bool nothing_to_restore = false;  // journal never acted on: the device was not written
  bool journal_kept = false;        // verified, but the journal could not be deleted (the message says what to do)
  std::string message;
};

// Restores `contents` (already validated) from the journal open at
// `journal_fd` through `device_fd`, an O_DIRECT descriptor open for writing
// on the journal's device. Throws Error(io) if a range cannot be written or
// does not read back identically.
RestoreReport restore_records(int device_fd, int journal_fd, const std::string& journal_name,
                              const JournalContents& contents);

// After a verified restore: marks the journal open at `fd` restored, then
// deletes it if `file` still names it. Neither failing undoes the restore:
// `report` is told what is left (journal_kept, and the message says what to
// do). Returns whether the journal is gone.
bool retire_journal(const std::filesystem::path& file, int fd, RestoreReport& report);

struct RestoreRequest {
  std::filesystem::path journal;
  std::string device;    // --device: where the drive is now (path and device numbers are then not compared)
  bool partial = false;  // --partial: restore the complete records of a journal whose end was lost
  bool force = false;    // --force: also a journal marked restored (an earlier restore could not delete it)
};

// `ssdprobe restore JOURNAL [--device PATH] [--partial]`: checks the journal
// may be trusted (owner, directory), validates all of it, checks that the
// device is the journaled one field by field, restores, verifies, and
// deletes the journal once verified. Throws Error(refused) naming what
// differs or why the journal cannot be used, and for a journal marked
// restored without --force (the disk may hold newer data in its window).
RestoreReport restore_journal(const RestoreRequest& request);

}  // namespace ssdprobe
