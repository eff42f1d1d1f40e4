#include "safety/journal_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <utility>

#include "core/crc32c.h"
#include "core/error.h"
#include "core/shell_command.h"
#include "core/output.h"
#include "core/unique_fd.h"
#include "safety/device_identity.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;
constexpr size_t kMaxEntryBytes = 4096;

// The journal's real path: its directory resolved (symlinks, ".."), so every
// name for it registers and unregisters the same entry.
fs::path absolute_journal(const fs::path& journal) {
  std::error_code ec;
  const fs::path directory = fs::canonical(fs::absolute(journal).parent_path(), ec);
  return ec ? fs::absolute(journal).lexically_normal() : directory / journal.filename();
}

// The filesystem a journal's directory is on: an entry is stale only when
// the journal is missing from that same filesystem (a mount point whose
// filesystem is not mounted now is another, empty directory).
uint64_t directory_device(const fs::path& journal) {
  struct stat st {};
  return ::stat(journal.parent_path().c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_dev) : 0;
}

// One entry per journal path: its file name, prefixed with a checksum of the
// whole path so journals of the same name in two directories do not collide.
fs::path entry_for(const fs::path& index, const fs::path& journal) {
  const std::string path = absolute_journal(journal).string();
  const auto crc = crc32c(std::as_bytes(std::span(path.data(), path.size())));
  return index / fmt::format("{:08x}-{}.entry", crc, journal.filename().string());
}

void write_entry(const fs::path& temporary, const std::string& text) {
  UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd.valid()) throw os_error("creating " + temporary.string(), errno);
  if (::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    throw os_error("writing " + temporary.string(), errno);
  }
  if (::fsync(fd.get()) != 0) throw os_error("fsync of " + temporary.string(), errno);
}

struct IndexEntry {
  fs::path journal;               // empty: not a valid entry
  uint64_t directory_device = 0;  // st_dev of its directory when registered
};

// What an entry names; empty when the entry is not a regular file of this
// user (or root) or does not hold an absolute path and a device number.
IndexEntry read_entry(const fs::path& entry) {
  struct stat st {};
  if (::lstat(entry.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > static_cast<off_t>(kMaxEntryBytes)) {
    return {};
  }
  if (st.st_uid != ::geteuid() && st.st_uid != 0) return {};
  std::ifstream in(entry);
  std::string path;
  uint64_t device = 0;
  if (!std::getline(in, path) || path.empty() || path.front() != '/' || !(in >> device)) return {};
  return {path, device};
}

// A journal of this user that was written back and verified once: nothing
// left to restore, whatever became of its deletion.
bool marked_restored(const fs::path& journal) {
  struct stat st {};
  if (::lstat(journal.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) return false;
  try {
    const UniqueFd fd = open_journal_for_reading(journal);
    return read_journal_head(fd.get(), journal.string()).restored;
  } catch (const Error&) {
    return false;  // unreadable: read_pending_journal reports it
  }
}

}  // namespace

fs::path default_journal_index() {
  if (const char* state = std::getenv("SSDPROBE_STATE_DIR"); state != nullptr && *state != '\0') {
    return fs::path(state) / "pending";
  }
  if (::geteuid() == 0) return "/var/lib/ssdprobe/pending";
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg == '/') {
    return fs::path(xdg) / "ssdprobe" / "pending";
  }
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr && *home == '/' ? home : "/tmp") / ".local" / "state" / "ssdprobe" / "pending";
}

void register_journal(const fs::path& index, const fs::path& journal) {
  try {
    create_journal_dir(index);
    const fs::path entry = entry_for(index, journal);
    const fs::path temporary = entry.string() + fmt::format(".{}.tmp", ::getpid());
    const fs::path absolute = absolute_journal(journal);
    write_entry(temporary, fmt::format("{}\n{}\n", absolute.string(), directory_device(absolute)));
    if (::rename(temporary.c_str(), entry.c_str()) != 0) {
      const int err = errno;
      ::unlink(temporary.c_str());
      throw os_error("renaming " + temporary.string(), err);
    }
    fsync_dir(index);
  } catch (const Error& e) {
    throw Error(ErrorCategory::refused,
                fmt::format("cannot list the journal {} in the index of pending journals {} ({}); without it another "
                            "run could not see this one's window, so nothing is written",
                            journal.string(), index.string(), e.what()));
  }
}

void unregister_journal(const fs::path& index, const fs::path& journal) noexcept {
  try {
    const fs::path entry = entry_for(index, journal);
    if (::unlink(entry.c_str()) == 0) fsync_dir(index);
  } catch (...) {
    // A stale entry is harmless: the next reader drops it (its journal is gone).
  }
}

std::vector<PendingJournal> indexed_pending_journals(const fs::path& index) {
  std::vector<PendingJournal> found;
  std::error_code ec;
  if (!fs::is_directory(index, ec)) return found;
  check_journal_dir(index);  // an index others can write to could hide or plant entries
  for (const auto& entry : fs::directory_iterator(index, ec)) {
    if (entry.path().extension() != ".entry") continue;
    const IndexEntry listed = read_entry(entry.path());
    if (listed.journal.empty()) continue;
    const fs::path& journal = listed.journal;
    const bool directory_there = fs::is_directory(journal.parent_path(), ec) &&
                                 directory_device(journal) == listed.directory_device;
    struct stat st {};
    const bool journal_gone = ::lstat(journal.c_str(), &st) != 0 && errno == ENOENT;
    if (!directory_there && journal_gone) {
      found.push_back({journal, {}, false,
                       fmt::format("its directory is not there, or not on the filesystem it was on (a filesystem not "
                                   "mounted?); mount it and restore the journal, or, if the journal is gone for good, "
                                   "drop its index entry with: ssdprobe restore --forget {}",
                                   shell_quote(journal.string()))});
      continue;
    }
    // Stale: restored or removed without unregistering (killed right after),
    // or marked restored (its entry goes with the mark; killed in between).
    if (journal_gone || marked_restored(journal)) {
      ::unlink(entry.path().c_str());
      continue;
    }
    if (auto pending = read_pending_journal(journal)) found.push_back(std::move(*pending));
  }
  return found;
}

std::vector<PendingJournal> all_pending_journals(const fs::path& journal_dir, const fs::path& index) {
  std::vector<PendingJournal> all = pending_journals(journal_dir);
  for (auto& indexed : indexed_pending_journals(index)) {
    const auto same = [&](const PendingJournal& p) {
      std::error_code ec;
      return fs::equivalent(p.file, indexed.file, ec) || absolute_journal(p.file) == indexed.file;
    };
    if (std::none_of(all.begin(), all.end(), same)) all.push_back(std::move(indexed));
  }
  return all;
}

std::vector<PendingJournal> pending_journals_on(const Target& target, const fs::path& journal_dir,
                                                const fs::path& index) {
  std::vector<PendingJournal> on_target;
  UniqueFd fd(::open(target.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid() || target.topology.size_bytes == 0) return on_target;
  const JournalIdentity whole = identity_of(target, fd.get(), {0, target.topology.size_bytes}, true);
  for (auto& pending : all_pending_journals(journal_dir, index)) {
    // An unreadable journal could belong to any device: it is named everywhere.
    if (!pending.readable || windows_share_storage(pending.identity, whole)) on_target.push_back(std::move(pending));
  }
  return on_target;
}

}  // namespace ssdprobe

namespace ssdprobe {
namespace {

// The entry listing `named`: by the journal path it holds (as given, or with
// its directory resolved), or by the entry file's own path.
std::optional<std::pair<fs::path, IndexEntry>> find_entry(const fs::path& index, const fs::path& named) {
  std::error_code ec;
  const fs::path as_given = fs::absolute(named).lexically_normal();
  const fs::path resolved = absolute_journal(named);
  for (const auto& entry : fs::directory_iterator(index, ec)) {
    if (entry.path().extension() != ".entry") continue;
    const IndexEntry listed = read_entry(entry.path());
    if (listed.journal.empty()) continue;
    const bool names_it = listed.journal == as_given || listed.journal == resolved ||
                          fs::absolute(entry.path()).lexically_normal() == as_given;
    if (names_it) return std::pair{entry.path(), listed};
  }
  return std::nullopt;
}

// Why a listed journal counts as gone, or nullopt while it is there.
std::optional<std::string> why_gone(const IndexEntry& listed) {
  std::error_code ec;
  const fs::path& journal = listed.journal;
  struct stat st {};
  if (::lstat(journal.c_str(), &st) == 0) {
    if (marked_restored(journal)) return std::string("it is there but marked restored (nothing left to restore)");
    return std::nullopt;
  }
  const bool directory_there = fs::is_directory(journal.parent_path(), ec) &&
                               directory_device(journal) == listed.directory_device;
  if (directory_there) return std::string("its directory is there but the journal is not (removed or moved away)");
  return std::string("its directory is not there, or not on the filesystem it was on (a filesystem not mounted?)");
}

}  // namespace

std::string forget_journal_entry(const fs::path& index, const fs::path& journal, const Confirmation& confirmation) {
  std::error_code ec;
  if (fs::is_directory(index, ec)) check_journal_dir(index);  // an index others can write could plant the entry
  const auto found = find_entry(index, journal);
  if (!found) {
    throw Error(ErrorCategory::target, fmt::format("nothing to forget: the index of pending journals {} lists no "
                                                   "journal {}", index.string(), journal.string()));
  }
  const auto& [entry, listed] = *found;
  const auto gone = why_gone(listed);
  if (!gone) {
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to forget {}: the journal is there, and it may hold the only copy of a drive's "
                            "content; put it back with `ssdprobe restore {}` (an index entry is forgotten only when "
                            "its journal is gone)", listed.journal.string(), shell_quote(listed.journal.string())));
  }
  confirm_action(fmt::format("ssdprobe will FORGET the journal {} (index entry {}): {}.\n"
                             "  Write runs stop waiting for it. If it still exists on a filesystem not mounted now, "
                             "the window it saved may still hold ssdprobe's test data: mount that filesystem and run "
                             "`ssdprobe restore {}`.\n",
                             printable(listed.journal.string()), printable(entry.string()), *gone,
                             printable(shell_quote(listed.journal.string()))),
                 "forget it", confirmation);
  if (::unlink(entry.c_str()) != 0) throw os_error("removing the index entry " + entry.string(), errno);
  fsync_dir(index);
  return fmt::format("forgot the journal {}: its index entry {} is removed", listed.journal.string(), entry.string());
}

}  // namespace ssdprobe
