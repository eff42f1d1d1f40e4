// Where journals live, and which journal files may be trusted.
//
// A journal holds the only copy of a user's data while the probes run, so
// its directory must survive a power loss (not tmpfs/ramfs unless the user
// says so), have room for it, and be writable by nobody else: a file another
// user could plant or swap there would otherwise decide what gets written to
// the disk at restore time.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "safety/journal.h"

namespace ssdprobe {

struct JournalDirOptions {
  bool allow_ram = false;  // --allow-ram-journal: accept tmpfs/ramfs (scratch machines only)
};

// Directories a run created for its journal. Destroyed before keep(), it
// removes those still empty, newest first: a run refused after creating
// them (a journal directory in RAM, not confirmed) leaves nothing behind.
class CreatedDirs {
 public:
  CreatedDirs() = default;
  CreatedDirs(const CreatedDirs&) = delete;
  CreatedDirs& operator=(const CreatedDirs&) = delete;
  ~CreatedDirs();

  void add(std::filesystem::path dir) { dirs_.push_back(std::move(dir)); }
  // A journal was written there: the directories stay.
  void keep() { dirs_.clear(); }

 private:
  std::vector<std::filesystem::path> dirs_;  // in the order they were created
};

// Creates `dir` and any missing parent, each mode 0700 whatever the umask,
// each creation fsynced in its parent, and checks that the directory is
// trusted (check_journal_dir). Throws Error(refused) naming the problem.
// Each directory it creates is added to `created` when given.
void create_journal_dir(const std::filesystem::path& dir, CreatedDirs* created = nullptr);

// Refuses a RAM-backed directory (unless allowed) and one without room for
// `bytes_needed`.
void check_journal_dir_capacity(const std::filesystem::path& dir, uint64_t bytes_needed,
                                const JournalDirOptions& options);

// A directory is trusted when it is owned by the invoking user or root and
// is not writable by group or others unless it has the sticky bit (/tmp).
void check_journal_dir(const std::filesystem::path& dir);

// A journal open at `fd` is trusted when it is a regular file owned by the
// invoking user (or root) in a trusted directory. Throws Error(refused).
void check_journal_file(int fd, const std::filesystem::path& file);

// Removes `file` only if the name still refers to the journal open at `fd`:
// never deletes a file someone put in its place. Returns whether it did.
bool remove_journal_if_same(const std::filesystem::path& file, int fd);

struct PendingJournal {
  std::filesystem::path file;
  JournalIdentity identity;
  bool readable = true;  // false: corrupt or unreadable; it blocks every device until dealt with
  std::string problem;
};

// Journals in `dir` that still hold content to restore: regular files named
// *.ssdpj owned by the invoking user (anything else, a FIFO, a symlink, a
// device node or another user's file, is ignored: it was not made by this
// user's ssdprobe). Opened without following links or blocking. A journal
// marked restored (verified once, its deletion failed) holds nothing to
// restore and is not listed.
std::vector<PendingJournal> pending_journals(const std::filesystem::path& dir);

// One journal file, by the same rules (nullopt: not this user's regular
// file, or marked restored).
std::optional<PendingJournal> read_pending_journal(const std::filesystem::path& file);

// fsync of a directory, so an entry created or removed in it survives a
// power loss. Throws Error(os) when it cannot be opened or synced.
void fsync_dir(const std::filesystem::path& dir);

}  // namespace ssdprobe
