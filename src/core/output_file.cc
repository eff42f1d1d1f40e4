#include "core/output_file.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2 (glibc 2.28)
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <random>
#include <utility>

#include "core/error.h"
#include "core/output.h"

namespace ssdprobe {
namespace {

constexpr size_t kFlushBytes = 256 * 1024;

// The descriptor number in /dev/fd/N or /proc/self/fd/N.
std::optional<int> descriptor_in(const std::string& path) {
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix) || path.size() == prefix.size()) continue;
    int fd = -1;
    const char* first = path.data() + prefix.size();
    const char* last = path.data() + path.size();
    const auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc() && end == last && fd >= 0) return fd;
  }
  return std::nullopt;
}

// The descriptor a stream name stands for: -1 for /dev/null, which is opened.
int stream_descriptor(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  if (const auto fd = descriptor_in(path)) return *fd;
  return -1;
}

std::string quoted(const std::string& path) { return printable(path); }

[[noreturn]] void refuse(const OutputSpec& out, const std::string& why) {
  throw Error(ErrorCategory::usage, fmt::format("{} {}: {}", out.option, quoted(out.path), why));
}

void check_stream(const OutputSpec& out) {
  if (out.path == "/dev/null") {
    struct stat st {};
    if (::stat("/dev/null", &st) != 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3)) {
      refuse(out, "is not the null device on this machine; nothing was written");
    }
    return;
  }
  const int fd = stream_descriptor(out.path);
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) refuse(out, fmt::format("descriptor {} is not open", fd));
  if ((flags & O_ACCMODE) == O_RDONLY) refuse(out, fmt::format("descriptor {} is open for reading only", fd));
}

const char* node_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string link_text(const std::string& path) {
  char target[4096];
  const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
  return n > 0 ? printable(std::string_view(target, static_cast<size_t>(n))) : std::string("?");
}

// Why what is at the path (lstat'ed as `st`) may not be replaced, or nullopt.
std::optional<std::string> refusal_of(const OutputSpec& out, const struct stat& st) {
  if (S_ISLNK(st.st_mode)) {
    if (out.force) return std::nullopt;  // the link itself is replaced by the rename
    return fmt::format("is a symbolic link (to {}); ssdprobe does not write through links: name the file itself, or "
                       "give --force to replace the link (never what it points to)", link_text(out.path));
  }
  if (S_ISDIR(st.st_mode)) return std::string("is a directory; give a FILE to write");
  if (S_ISBLK(st.st_mode)) return std::string("is a block device; the output would overwrite it (give a file name)");
  if (!S_ISREG(st.st_mode)) {
    return fmt::format("is {}; ssdprobe writes into a stream only when it is named as one ('-', /dev/stdout or "
                       "/dev/fd/N: e.g. {} - > {})", node_kind(st.st_mode), out.option, quoted(out.path));
  }
  if (out.force || st.st_size == 0) return std::nullopt;
  const std::string head = file_head(out.path);
  if (head.empty()) return std::string("cannot be read to tell what it holds; nothing was written (--force replaces it)");
  if (out.kind.ours == nullptr || out.kind.ours(head)) return std::nullopt;
  const std::string held = out.kind.describe != nullptr ? out.kind.describe(head) : std::string();
  const std::string what = held.empty() ? fmt::format("{} bytes that are not {} ssdprobe wrote", st.st_size,
                                                      out.kind.what)
                                        : fmt::format("{}, not {}", held, out.kind.what);
  return fmt::format("holds {}; nothing was written (give a new file name, or --force to replace it)", what);
}

// What is at PATH.partial when it is not ours to replace: a regular file of
// this user is a crashed run's leftover; anything else (a link planted to
// make root overwrite its target, another user's file) is left alone.
std::optional<std::string> foreign_partial(const std::string& partial) {
  struct stat st {};
  if (::lstat(partial.c_str(), &st) != 0 || (S_ISREG(st.st_mode) && st.st_uid == ::geteuid())) return std::nullopt;
  return std::string(S_ISLNK(st.st_mode) ? "a symbolic link" : !S_ISREG(st.st_mode) ? "not a regular file"
                                                                                     : "a file of another user");
}

void refuse_target_like(const OutputSpec& out, const char* why) {
  refuse(out, fmt::format("{}; {} needs a FILE to write (did a shell glob or a missing value put the target there?)",
                          why, out.option));
}

void check_directory(const OutputSpec& out) {
  const size_t slash = out.path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : out.path.substr(0, slash);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    refuse(out, fmt::format("directory {} does not exist", quoted(dir)));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    throw os_error(fmt::format("{} {}: cannot write in {}", out.option, quoted(out.path), quoted(dir)), errno);
  }
}

// Returns 0 or the errno of the write that failed.
int write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n > 0) {
      text.remove_prefix(static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return n < 0 ? errno : EIO;
    }
  }
  return 0;
}

}  // namespace

bool names_stream(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/stderr" || path == "/dev/null" ||
         descriptor_in(path).has_value();
}

bool names_standard_output(const std::string& path) {
  return names_stream(path) && path != "/dev/null" && stream_descriptor(path) == STDOUT_FILENO;
}

std::string file_head(const std::string& path, size_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string head;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    head.resize(limit);
    const ssize_t n = ::pread(fd, head.data(), limit, 0);
    head.resize(n > 0 ? static_cast<size_t>(n) : 0);
  }
  ::close(fd);
  return head;
}

namespace {

// What check_output checks but FILE.partial: OutputFile checks it again when
// it opens, after a run that may have been long.
void check_destination(const OutputSpec& out) {
  if (out.path.empty()) throw Error(ErrorCategory::usage, out.option + " needs a FILE");
  if (names_stream(out.path)) return check_stream(out);
  if (out.path.starts_with("sim:")) refuse_target_like(out, "looks like a simulated drive target, not an output file");
  struct stat st {};
  if (::lstat(out.path.c_str(), &st) == 0) {
    if (const auto why = refusal_of(out, st)) refuse(out, *why);
  } else if (errno != ENOENT) {
    throw os_error(fmt::format("{} {}: cannot inspect it", out.option, quoted(out.path)), errno);
  } else if (out.path.starts_with("/dev/") && !out.path.starts_with("/dev/shm/")) {
    refuse_target_like(out, "looks like a device target, not an output file (of /dev, only /dev/stdout, "
                            "/dev/stderr, /dev/fd/N and /dev/null take output)");
  }
  check_directory(out);
}

}  // namespace

void check_output(const OutputSpec& out) {
  check_destination(out);
  if (names_stream(out.path)) return;
  if (const auto what = foreign_partial(out.path + ".partial")) {
    throw Error(ErrorCategory::refused, fmt::format("{} {}: refusing to write through {}.partial: it exists and is {}; "
                                                    "remove it or choose another {} FILE", out.option,
                                                    quoted(out.path), quoted(out.path), *what, out.option));
  }
}

OutputFile::OutputFile(OutputSpec output) : output_(std::move(output)) {
  check_destination(output_);
  if (names_stream(output_.path)) {
    open_stream();
  } else {
    open_partial();
  }
}

OutputFile::~OutputFile() {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  if (!committed_ && !partial_.empty()) ::unlink(partial_.c_str());
}

void OutputFile::open_stream() {
  if (output_.path == "/dev/null") {
    fd_ = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw os_error(output_.option + " /dev/null: cannot open", errno);
    owns_fd_ = true;
    return;
  }
  const int fd = stream_descriptor(output_.path);
  if (fd == STDOUT_FILENO) return;  // fd_ -1: print_quietly, which remembers a failed write
  // The caller's own open file description (its offset, O_APPEND), not a
  // new open of /proc/self/fd/N, which would write from the start.
  fd_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (fd_ < 0) throw os_error(fmt::format("{} {}: cannot use it", output_.option, quoted(output_.path)), errno);
  owns_fd_ = true;
}

namespace {

constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;

// PATH.partial-XXXXXXXX with a random suffix nobody can plant in advance.
int create_unforeseeable(const std::string& path, std::string& name) {
  std::random_device random;
  for (int attempt = 0; attempt < 16; ++attempt) {
    name = fmt::format("{}.partial-{:08x}", path, random());
    const int fd = ::open(name.c_str(), kCreateFlags, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

}  // namespace

// PATH.partial, created anew. A regular file of ours by that name is left
// over from a run that crashed while writing it and is replaced; anything
// else there was refused by check_output before the run, so one found now
// was planted while it ran: it is left alone (its target untouched) and the
// output goes to a name nobody could foresee instead, since a long run's
// result must not be lost to a planted link.
void OutputFile::open_partial() {
  partial_ = output_.path + ".partial";
  fd_ = ::open(partial_.c_str(), kCreateFlags, 0644);
  if (fd_ < 0 && errno == EEXIST && !foreign_partial(partial_)) {
    if (::unlink(partial_.c_str()) != 0 && errno != ENOENT) {
      throw os_error("cannot remove the stale " + quoted(partial_), errno);
    }
    fd_ = ::open(partial_.c_str(), kCreateFlags, 0644);
  }
  if (fd_ < 0 && errno == EEXIST) {
    const std::string planted = partial_;
    fd_ = create_unforeseeable(output_.path, partial_);
    if (fd_ >= 0) {
      print_warning(fmt::format("{} {}: {} appeared while ssdprobe ran and is left alone; writing through {} instead",
                                output_.option, output_.path, planted, partial_));
    }
  }
  if (fd_ < 0) {
    const int err = errno;
    throw os_error("cannot create " + quoted(std::exchange(partial_, "")), err);
  }
  owns_fd_ = true;
  struct stat st {};
  if (::lstat(output_.path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) replaced_mode_ = st.st_mode & 0777;
}

void OutputFile::write(std::string_view text) {
  buffer_.append(text);
  if (buffer_.size() >= kFlushBytes) flush();
}

void OutputFile::flush() {
  if (fd_ < 0) {
    print_quietly(stdout, buffer_);  // a closed pipe must not stop the rest (core/output.h)
  } else if (const int err = write_all(fd_, buffer_); err != 0) {
    throw os_error(fmt::format("{} {}: writing {} failed", output_.option, quoted(output_.path),
                               quoted(partial_.empty() ? output_.path : partial_)),
                   err);
  }
  buffer_.clear();
}

// What is at the path now is checked again: something may have appeared or
// changed while a long run wrote. A refusal keeps the complete output in
// PATH.partial, named in the error, so nothing is lost.
void OutputFile::rename_into_place() {
  struct stat st {};
  const bool exists = ::lstat(output_.path.c_str(), &st) == 0;
  std::optional<std::string> why = exists ? refusal_of(output_, st) : std::nullopt;
  if (!why) {
    // Nothing there when checked: a file that appears since is not replaced.
    const unsigned flags = exists ? 0 : RENAME_NOREPLACE;
    int rc = ::renameat2(AT_FDCWD, partial_.c_str(), AT_FDCWD, output_.path.c_str(), flags);
    if (rc != 0 && errno == EINVAL && flags != 0) {  // a filesystem without RENAME_NOREPLACE
      rc = ::rename(partial_.c_str(), output_.path.c_str());
    }
    if (rc == 0) return;
    why = errno == EEXIST ? std::string("appeared while ssdprobe was writing; it was not replaced")
                          : fmt::format("cannot rename {} to it: {}", quoted(partial_), std::strerror(errno));
  }
  committed_ = true;  // the complete output stays in PATH.partial
  throw Error(ErrorCategory::io, fmt::format("{} {}: {}; the complete output is in {}", output_.option,
                                             quoted(output_.path), *why, quoted(partial_)));
}

void OutputFile::commit() {
  flush();
  if (fd_ < 0) {
    committed_ = true;
    return;
  }
  // The file it replaces keeps its permissions (a 0600 document stays
  // private), and is on the disk before the rename makes it PATH: a crash
  // then leaves the old file or the new one, never an empty one.
  if (replaced_mode_) ::fchmod(fd_, *replaced_mode_);
  const bool synced = partial_.empty() || ::fsync(fd_) == 0 || errno == EINVAL;
  const int err = errno;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0 || !synced) {
    throw os_error(fmt::format("{} {}: writing failed", output_.option, quoted(output_.path)), synced ? errno : err);
  }
  if (!partial_.empty()) rename_into_place();
  committed_ = true;
}

void write_output(const OutputSpec& output, std::string_view text) {
  OutputFile out(output);
  out.write(text);
  out.commit();
}

}  // namespace ssdprobe
