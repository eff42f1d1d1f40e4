#include "safety/journal_dir.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <fmt/format.h>

#include "core/error.h"
#include "core/unique_fd.h"

namespace ssdprobe {

namespace fs = std::filesystem;

void fsync_dir(const fs::path& dir) {
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) throw os_error("opening " + dir.string() + " to fsync it", errno);
  if (::fsync(fd.get()) != 0) throw os_error("fsync of " + dir.string(), errno);
}

namespace {

constexpr uint64_t kSpaceMargin = 16u << 20;  // headers, and room for whatever else shares the filesystem

Error refused(const std::string& message) { return Error(ErrorCategory::refused, message); }

bool trusted_owner(uid_t owner) { return owner == ::geteuid() || owner == 0; }

// mkdir -p with mode 0700 for every directory it creates, each made durable
// in its parent (a journal in a directory that vanishes at power loss is no
// journal).
void create_private_dirs(const fs::path& dir, CreatedDirs* created) {
  const fs::path absolute = fs::absolute(dir).lexically_normal();
  fs::path built;
  for (const auto& part : absolute) {
    built /= part;
    if (::mkdir(built.c_str(), 0700) == 0) {
      if (created != nullptr) created->add(built);
      if (::chmod(built.c_str(), 0700) != 0) throw os_error("chmod 0700 " + built.string(), errno);
      fsync_dir(built.parent_path());
    } else if (errno != EEXIST) {
      throw os_error(fmt::format("journal directory {} cannot be created", dir.string()), errno);
    }
  }
}

void refuse_ram_backed(const fs::path& dir, const JournalDirOptions& options) {
  struct statfs fs_info {};
  if (::statfs(dir.c_str(), &fs_info) != 0) throw os_error(dir.string(), errno);
  const auto type = static_cast<unsigned long>(fs_info.f_type);
  if ((type == TMPFS_MAGIC || type == RAMFS_MAGIC) && !options.allow_ram) {
    throw refused(fmt::format("the journal directory {} is in RAM ({}): a power loss after the first write would "
                              "lose the only copy of the saved content; choose a directory on a disk with --journal "
                              "DIR (or, on a scratch machine, accept the risk with --allow-ram-journal)",
                              dir.string(), type == TMPFS_MAGIC ? "tmpfs" : "ramfs"));
  }
}

void refuse_without_room(const fs::path& dir, uint64_t bytes_needed) {
  struct statvfs info {};
  if (::statvfs(dir.c_str(), &info) != 0) throw os_error(dir.string(), errno);
  uint64_t free_bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(info.f_bavail), static_cast<uint64_t>(info.f_frsize), &free_bytes)) {
    return;  // more than 2^64 bytes free
  }
  if (bytes_needed > UINT64_MAX - kSpaceMargin || free_bytes < bytes_needed + kSpaceMargin) {
    throw refused(fmt::format("the journal directory {} has {} bytes free but the journal needs {} (plus {} to "
                              "spare); free space there, choose another --journal DIR, or a smaller --region",
                              dir.string(), free_bytes, bytes_needed, kSpaceMargin));
  }
}

}  // namespace

void check_journal_dir(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) throw os_error("journal directory " + dir.string(), errno);
  if (!S_ISDIR(st.st_mode)) throw refused(fmt::format("journal directory {} is not a directory", dir.string()));
  if (!trusted_owner(st.st_uid)) {
    throw refused(fmt::format("journal directory {} belongs to uid {}, not to you (uid {}) or root: its owner could "
                              "plant or swap journals; use a directory of your own with --journal DIR",
                              dir.string(), st.st_uid, ::geteuid()));
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
    throw refused(fmt::format("journal directory {} is writable by other users (mode {:o}) and not sticky: anyone "
                              "could plant or swap a journal there; use a private directory with --journal DIR",
                              dir.string(), st.st_mode & 07777));
  }
}

CreatedDirs::~CreatedDirs() {
  for (auto dir = dirs_.rbegin(); dir != dirs_.rend(); ++dir) {
    if (::rmdir(dir->c_str()) != 0) return;  // not empty (or gone): its parents are not empty either
  }
}

void create_journal_dir(const fs::path& dir, CreatedDirs* created) {
  create_private_dirs(dir, created);
  check_journal_dir(dir);
}

void check_journal_dir_capacity(const fs::path& dir, uint64_t bytes_needed, const JournalDirOptions& options) {
  refuse_ram_backed(dir, options);
  refuse_without_room(dir, bytes_needed);
}

void check_journal_file(int fd, const fs::path& file) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw os_error("journal " + file.string(), errno);
  if (!S_ISREG(st.st_mode)) throw refused(fmt::format("journal {} is not a regular file", file.string()));
  if (!trusted_owner(st.st_uid)) {
    throw refused(fmt::format("journal {} belongs to uid {}, not to you (uid {}) or root: refusing to write its "
                              "content to a disk",
                              file.string(), st.st_uid, ::geteuid()));
  }
  check_journal_dir(file.has_parent_path() ? file.parent_path() : fs::path("."));
}

bool remove_journal_if_same(const fs::path& file, int fd) {
  struct stat named {}, open {};
  if (::lstat(file.c_str(), &named) != 0 || ::fstat(fd, &open) != 0) return false;
  if (named.st_dev != open.st_dev || named.st_ino != open.st_ino) return false;
  if (::unlink(file.c_str()) != 0) return false;
  fsync_dir(file.has_parent_path() ? file.parent_path() : fs::path("."));
  return true;
}

std::optional<PendingJournal> read_pending_journal(const fs::path& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) return std::nullopt;
  PendingJournal pending{file, {}, true, ""};
  try {
    const UniqueFd fd = open_journal_for_reading(file);
    JournalHead head = read_journal_head(fd.get(), file.string());
    if (head.restored) return std::nullopt;  // done: only its deletion failed
    pending.identity = std::move(head.identity);
  } catch (const Error& e) {
    pending.readable = false;  // let the user decide; never ignore it
    pending.problem = e.what();
  }
  return pending;
}

std::vector<PendingJournal> pending_journals(const fs::path& dir) {
  std::vector<PendingJournal> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".ssdpj") continue;
    if (auto pending = read_pending_journal(entry.path())) found.push_back(std::move(*pending));
  }
  return found;
}

}  // namespace ssdprobe
