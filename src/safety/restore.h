// Puts a journal's saved content back on its device and proves it: every
// range is written, flushed, read back and checksummed against the journal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <filesystem>
#include <string>

#include "core/aligned_buffer.h"
#include "safety/confirm.h"
#include "safety/journal.h"

namespace ssdprobe {

struct RestoreReport {
  uint64_t records = 0;
  uint64_t bytes = 0;           // the records' bytes, all verified
  uint64_t bytes_written = 0;   // of those, the ones that did not already hold the saved content
  uint64_t writes = 0;          // the runs of differing blocks written
  bool nothing_to_restore = false;  // journal never acted on: the device was not written
  bool journal_kept = false;        // verified, but the journal could not be deleted (the message says what to do)
  std::string message;
};

// The memory a restore needs, allocated up front: a write run makes it
// before its first write, so putting the window back never fails for want of
// memory the probes did not need (a run under `ulimit -v` used to fail there
// and leave the window written). Records are streamed through it.
class RestoreBuffers {
 public:
  static constexpr size_t kPieceBytes = 1u << 20;
  RestoreBuffers() : journal_(kPieceBytes), device_(kPieceBytes) {}
  std::span<std::byte> journal() { return {journal_.data(), journal_.size()}; }
  std::span<std::byte> device() { return {device_.data(), device_.size()}; }

 private:
  AlignedBuffer journal_, device_;
};

// What the device holds in a journal's window before a restore, sector by
// sector: the journal's saved content, ssdprobe's test data (core/
// probe_data.h), or neither (someone wrote there since).
struct WindowCensus {
  uint64_t saved_bytes = 0, test_bytes = 0, foreign_bytes = 0;
  uint64_t first_foreign_offset = 0;  // meaningful when foreign_bytes > 0
};
WindowCensus survey_window(int device_fd, int journal_fd, const std::string& journal_name,
                           const JournalContents& contents, RestoreBuffers& buffers);

// Restores `contents` (already validated) from the journal open at
// `journal_fd` through `device_fd`, an O_DIRECT descriptor open for writing
// on the journal's device (restore_records.cc): each record is read from the
// device first and only the logical blocks that differ from it are written
// (a failed write is noted and the rest still written), the device flushed,
// every record read back and checksummed. Throws Error(io) naming every byte
// range that does not hold the saved content afterwards and why (the write
// failed with which error, or it reads back differently).
RestoreReport restore_records(int device_fd, int journal_fd, const std::string& journal_name,
                              const JournalContents& contents, RestoreBuffers& buffers);

// After a verified restore: marks the journal open at `fd` restored, then
// deletes it if `file` still names it, and removes its entry from the index
// of pending journals `index` once either is done (a journal marked restored
// blocks no run, also when its filesystem is later unmounted). Neither
// failing undoes the restore: `report` is told what is left (journal_kept,
// and the message says what to do). Returns whether the journal is gone.
bool retire_journal(const std::filesystem::path& file, int fd, const std::filesystem::path& index,
                    RestoreReport& report);

struct RestoreRequest {
  std::filesystem::path journal;
  std::string device;    // --device: where the drive is now (path and device numbers are then not compared)
  bool partial = false;  // --partial: restore the complete records of a journal whose end was lost
  bool force = false;    // --force: also a journal marked restored (an earlier restore could not delete it),
                         // a window someone wrote to since the run, and a version 1 journal on a device
                         // without a serial (nothing else binds it: device_identity.h)
  Confirmation confirmation;  // --yes, or the terminal to ask on
};

// `ssdprobe restore JOURNAL [--device PATH] [--partial] [--force] [--yes]`: checks the journal
// may be trusted (owner, directory), validates all of it, checks that the
// device is the journaled one field by field and not in use, reads the
// window (survey_window), shows what will be written and asks (unless
// --yes), restores, verifies, and deletes the journal once verified. A
// window that already holds the saved content is not written again. Throws
// Error(refused) naming what differs or why the journal cannot be used, and
// without --force for a journal marked restored or a window holding bytes
// that are neither saved nor test data (the disk may hold newer data there).
RestoreReport restore_journal(const RestoreRequest& request);

}  // namespace ssdprobe
