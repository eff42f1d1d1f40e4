// The index of pending journals: one fixed place on the system where every
// journal is listed from before its device's first write until the journal
// is gone, wherever its --journal directory is. A write run with another
// --journal, an `info` or an `audit` thus still sees a window that a killed
// run left written, instead of saving the test data as the "original".
//
// The place: $SSDPROBE_STATE_DIR/pending when that is set (tests, or a
// system that keeps state elsewhere), else /var/lib/ssdprobe/pending for
// root and $XDG_STATE_HOME/ssdprobe/pending (~/.local/state/...) for other
// users, whose journals only they can restore (so root does not see another
// user's pending journals, nor that user root's). Each entry is a small
// file holding the journal's absolute path (its directory resolved) and the
// device number of the filesystem that directory is on, created mode 0600
// in a 0700 directory, written to a temporary name, fsynced and renamed.
#pragma once

#include <filesystem>
#include <vector>

#include "device/target.h"
#include "safety/confirm.h"
#include "safety/journal_dir.h"

namespace ssdprobe {

std::filesystem::path default_journal_index();

// Lists `journal` in the index. Throws Error(refused) when it cannot (the
// write run must not start unregistered).
void register_journal(const std::filesystem::path& index, const std::filesystem::path& journal);

// Removes `journal`'s entry; quiet when there is none or removing fails (a
// stale entry is dropped by the next reader once the journal is gone).
void unregister_journal(const std::filesystem::path& index, const std::filesystem::path& journal) noexcept;

// The listed journals that still hold content to restore. An entry whose
// journal is gone while its directory is there, on the filesystem it was on,
// or whose journal is marked restored, is stale (the journal was restored or
// removed) and is deleted; one whose directory is missing or now another
// filesystem's (not mounted?) is returned unreadable: it blocks write runs
// until the directory is back or the entry is forgotten (forget_journal_entry),
// because the journal may hold the only copy of a drive's content.
std::vector<PendingJournal> indexed_pending_journals(const std::filesystem::path& index);

// `ssdprobe restore --forget JOURNAL`: removes the index entry that lists
// JOURNAL (named by the journal's path, or by the entry file's) once the
// journal is gone: its directory missing or on another filesystem (not
// mounted?), the journal removed, or marked restored. It first shows what it
// forgets and asks (confirmation: --yes, or "yes" on a terminal). Returns
// what it did. Throws Error(target) when no entry lists JOURNAL and
// Error(refused) while the journal is there to restore.
std::string forget_journal_entry(const std::filesystem::path& index, const std::filesystem::path& journal,
                                 const Confirmation& confirmation);

// This run's journal directory and the index together, each journal once.
std::vector<PendingJournal> all_pending_journals(const std::filesystem::path& journal_dir,
                                                 const std::filesystem::path& index);

// The pending journals (from `journal_dir` and the index) whose window lies
// on the storage of `target` (any byte of it: a journal of a partition is
// named for its disk, and one of a file for a loop device over it), and
// every unreadable one (it could belong to any device). Never
// writes to the device (it may drop stale index entries): for `info`,
// `audit` and read-only runs, which name them.
std::vector<PendingJournal> pending_journals_on(const Target& target, const std::filesystem::path& journal_dir,
                                                const std::filesystem::path& index);

}  // namespace ssdprobe
