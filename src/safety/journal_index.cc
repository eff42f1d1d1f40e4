#include "safety/journal_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>

#include "core/crc32c.h"
#include "core/error.h"
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
                                   "mounted?); mount it and restore the journal, or delete the index entry {} if the "
                                   "journal is gone for good",
                                   entry.path().string())});
      continue;
    }
    if (journal_gone) {
      ::unlink(entry.path().c_str());  // stale: restored or removed without unregistering (killed right after)
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
