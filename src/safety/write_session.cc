#include "safety/write_session.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "core/aligned_buffer.h"
#include "core/block_math.h"
#include "core/error.h"
#include "safety/exclusive_use.h"
#include "core/interrupt.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;
constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kDefaultWindow = 256 * kMiB;
constexpr uint64_t kJournalChunk = 4 * kMiB;

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
  return text;
}

// Every device number on the target's disk: the disk and its partitions.
std::vector<dev_t> disk_device_numbers(const Topology& t) {
  std::vector<dev_t> numbers;
  const fs::path disk = fs::path("/sys/block") / t.disk_name;
  auto add = [&](const fs::path& dev_file) {
    std::ifstream in(dev_file);
    unsigned maj = 0, min = 0;
    char colon = 0;
    if (in >> maj >> colon >> min) numbers.push_back(makedev(maj, min));
  };
  add(disk / "dev");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(disk, ec)) {
    if (fs::exists(entry.path() / "partition")) add(entry.path() / "dev");
  }
  return numbers;
}

}  // namespace

Region default_write_window(uint64_t device_size) {
  if (device_size < 8 * kMiB) {
    throw Error(ErrorCategory::target, fmt::format("the device ({} bytes) is too small for write probes: they need "
                                                   "at least 8 MiB, of which the first and last MiB stay untouched",
                                                   device_size));
  }
  const uint64_t usable = align_down(device_size, kMiB) - 2 * kMiB;
  const uint64_t length = std::min(kDefaultWindow, align_down(usable, kMiB));
  const uint64_t offset = std::max(kMiB, align_down(device_size / 2 - length / 2, kMiB));
  return {offset, length};
}

WriteSession::WriteSession(const Target& target, const Region& window, const WriteSessionOptions& options)
    : path_(target.path), topology_(target.topology), window_(window), options_(options) {
  const bool block = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  if (block) {
    refuse_if_in_use(target.topology);
    const int fd = ::open(path_.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      if (err == EBUSY) {
        throw Error(ErrorCategory::refused, fmt::format("refusing to write to {}: the kernel reports it busy (mounted, "
                                                        "claimed by another program, or held by a device mapper)", path_));
      }
      throw os_error("cannot claim " + path_ + " exclusively", err);
    }
    claim_ = UniqueFd(fd);
    struct stat st {};
    if (::fstat(fd, &st) == 0) rdev_ = st.st_rdev;
  }
  if (!options_.preserve) return;
  std::error_code ec;
  fs::create_directories(options_.journal_dir, ec);
  if (!fs::is_directory(options_.journal_dir)) {
    throw Error(ErrorCategory::refused, fmt::format("journal directory {} cannot be created: {}",
                                                    options_.journal_dir.string(), ec.message()));
  }
  check_journal_location(target);
  const auto pending = pending_journals(options_.journal_dir, path_, rdev_);
  if (!pending.empty()) {
    throw Error(ErrorCategory::refused,
                fmt::format("{} has an unrestored journal from an earlier write run; restore it first with: "
                            "ssdprobe restore {}",
                            path_, pending.front().string()));
  }
}

void WriteSession::check_journal_location(const Target& target) const {
  struct stat journal {};
  if (::stat(options_.journal_dir.c_str(), &journal) != 0) throw os_error(options_.journal_dir.string(), errno);
  bool on_target = false;
  if (target.kind == TargetKind::file) {
    struct stat file {};
    on_target = ::stat(path_.c_str(), &file) == 0 && file.st_dev == journal.st_dev;
  } else {
    for (dev_t number : disk_device_numbers(topology_)) on_target |= number == journal.st_dev;
  }
  if (on_target) {
    throw Error(ErrorCategory::refused,
                fmt::format("the journal directory {} is on the device being written; choose one on another "
                            "filesystem with --journal DIR",
                            options_.journal_dir.string()));
  }
}

WritePlanSummary WriteSession::summary() const {
  WritePlanSummary plan;
  plan.path = path_;
  plan.model = topology_.model;
  plan.serial = topology_.serial;
  plan.device_size = topology_.size_bytes;
  plan.offset = window_.offset;
  plan.length = window_.length;
  plan.preserve = options_.preserve;
  plan.journal = options_.preserve ? options_.journal_dir.string() + "/" : "";
  return plan;
}

void WriteSession::save() {
  if (!options_.preserve) return;
  const std::string base = fs::path(path_).filename().string();
  journal_path_ = options_.journal_dir / fmt::format("{}-{}-{}.ssdpj", base, timestamp(), ::getpid());
  JournalIdentity id{path_, rdev_, topology_.size_bytes, static_cast<uint32_t>(topology_.logical_block_size.value_or(512)),
                     topology_.model, topology_.serial, window_.offset, window_.length, timestamp()};
  try {
    JournalWriter writer(journal_path_, id);
    copy_window_to(writer);
    writer.commit();
  } catch (...) {
    // Nothing was written to the device yet: an uncommitted journal is
    // useless, and left behind it would block the next run.
    fs::remove(journal_path_);
    throw;
  }
  saved_ = true;
}

void WriteSession::copy_window_to(JournalWriter& writer) {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0) throw os_error("cannot open " + path_ + " to save its content", errno);
  UniqueFd reader(fd);
  AlignedBuffer buffer(kJournalChunk);
  for (uint64_t at = window_.offset; at < window_.offset + window_.length; at += kJournalChunk) {
    if (interrupt_requested()) throw Error(ErrorCategory::interrupted, "interrupted while saving; nothing was written");
    const size_t length = std::min<uint64_t>(kJournalChunk, window_.offset + window_.length - at);
    const ssize_t n = ::pread(reader.get(), buffer.data(), length, static_cast<off_t>(at));
    if (n != static_cast<ssize_t>(length)) throw os_error(fmt::format("saving {} bytes at {}", length, at), n < 0 ? errno : EIO);
    writer.append(at, std::span(buffer.data(), length));
  }
}

std::optional<RestoreReport> WriteSession::restore() {
  if (!saved_) return std::nullopt;
  const JournalContents contents = read_journal(journal_path_);
  const int fd = ::open(path_.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
  if (fd < 0) throw os_error("cannot open " + path_ + " to restore it; run: ssdprobe restore " + journal_path_.string(), errno);
  UniqueFd device(fd);
  RestoreReport report = restore_records(device.get(), journal_path_, contents);
  fs::remove(journal_path_);
  saved_ = false;
  return report;
}

}  // namespace ssdprobe
