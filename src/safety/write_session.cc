#include "safety/write_session.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "core/aligned_buffer.h"
#include "core/block_math.h"
#include "core/clock_text.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "safety/device_identity.h"
#include "safety/exclusive_use.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;
constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kDefaultWindow = 256 * kMiB;
constexpr uint64_t kJournalChunk = 4 * kMiB;

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
    : path_(target.path), topology_(target.topology), kind_(target.kind), window_(window), options_(options) {
  claim(target);
  identity_ = identity_of(target, device_.get(), window_, options_.region_given);
  if (!options_.preserve) return;
  create_journal_dir(options_.journal_dir);
  check_journal_location(target);
  check_journal_dir_capacity(options_.journal_dir, window_.length, options_.journal_dir_options);
  refuse_pending_journals();
}

void WriteSession::claim(const Target& target) {
  const bool block = kind_ == TargetKind::block || kind_ == TargetKind::partition;
  if (block) refuse_if_in_use(target.topology);
  // The path is opened once; everything later uses this descriptor.
  const int fd = open_device_for_writing(path_, block);
  if (fd < 0) {
    const int err = errno;
    if (err == EBUSY) {
      throw Error(ErrorCategory::refused, fmt::format("refusing to write to {}: the kernel reports it busy (mounted, "
                                                      "claimed by another program, or held by a device mapper)", path_));
    }
    throw os_error("cannot claim " + path_ + (block ? " exclusively" : " for writing"), err);
  }
  device_ = UniqueFd(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw os_error(path_, errno);
  const bool same = block ? st.st_rdev == target.node.rdev
                          : st.st_dev == target.node.dev && st.st_ino == target.node.ino;
  if (!same) {
    throw Error(ErrorCategory::refused, fmt::format("refusing to write to {}: the path now names another {} than the "
                                                    "one checked a moment ago (was it replaced?)",
                                                    path_, block ? "device" : "file"));
  }
  if (!block) refuse_file_in_use(path_, fd);
}

void WriteSession::check_journal_location(const Target& target) const {
  struct stat journal {};
  if (::stat(options_.journal_dir.c_str(), &journal) != 0) throw os_error(options_.journal_dir.string(), errno);
  bool on_target = false;
  if (target.kind == TargetKind::file) {
    struct stat file {};
    on_target = ::fstat(device_.get(), &file) == 0 && file.st_dev == journal.st_dev;
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

// Journals are compared in disk coordinates: a pending journal of a
// partition blocks a run on its whole disk where their windows overlap, and
// the reverse.
void WriteSession::refuse_pending_journals() const {
  for (const auto& pending : pending_journals(options_.journal_dir)) {
    if (!pending.readable) {
      throw Error(ErrorCategory::refused,
                  fmt::format("{} cannot be read ({}); it may hold the only copy of a drive's content, so no write run "
                              "starts until it is restored with `ssdprobe restore {}` or moved away",
                              pending.file.string(), pending.problem, pending.file.string()));
    }
    if (!same_disk(pending.identity, identity_) || !windows_overlap(pending.identity, identity_)) continue;
    throw Error(ErrorCategory::refused,
                fmt::format("{} has an unrestored journal from an earlier write run whose window overlaps this one "
                            "(journal of {}); restore it first with: ssdprobe restore {}",
                            path_, pending.identity.path, pending.file.string()));
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
  journal_path_ = options_.journal_dir / fmt::format("{}-{}-{}.ssdpj", base, utc_now_text(kCompactUtc), ::getpid());
  JournalWriter writer(journal_path_, identity_);
  try {
    copy_window_to(writer);
    writer.commit();
    writer.mark_writes_started();
  } catch (...) {
    // Nothing was written to the device yet: an unfinished journal is
    // useless, and left behind it would block the next run.
    remove_journal_if_same(journal_path_, writer.fd());
    throw;
  }
  journal_ = writer.release();
  saved_ = true;
}

void WriteSession::copy_window_to(JournalWriter& writer) {
  AlignedBuffer buffer(kJournalChunk);
  for (uint64_t at = window_.offset; at < window_.offset + window_.length; at += kJournalChunk) {
    if (interrupt_requested()) throw Error(ErrorCategory::interrupted, "interrupted while saving; nothing was written");
    const size_t length = std::min<uint64_t>(kJournalChunk, window_.offset + window_.length - at);
    const ssize_t n = ::pread(device_.get(), buffer.data(), length, static_cast<off_t>(at));
    if (n != static_cast<ssize_t>(length)) throw os_error(fmt::format("saving {} bytes at {}", length, at), n < 0 ? errno : EIO);
    writer.append(at, std::span(buffer.data(), length));
  }
}

std::optional<RestoreReport> WriteSession::restore() {
  if (!saved_) return std::nullopt;
  const std::string name = journal_path_.string();
  // Read back through the descriptor the journal was created with: whatever
  // is at its name now is irrelevant. It must still be exactly this
  // session's journal.
  const JournalContents contents = read_journal(journal_.get(), name);
  const auto differences = identity_differences(contents.identity, identity_, false);
  if (!contents.committed || !differences.empty() || contents.identity.window_offset != window_.offset ||
      contents.identity.window_length != window_.length) {
    throw Error(ErrorCategory::internal,
                fmt::format("the journal {} no longer matches this run ({}); nothing was restored, run: ssdprobe "
                            "restore {}",
                            name, differences.empty() ? "window or commit" : differences.front(), name));
  }
  RestoreReport report = restore_records(device_.get(), journal_.get(), name, contents);
  retire_journal(journal_path_, journal_.get(), report);
  journal_.reset();
  saved_ = false;
  return report;
}

}  // namespace ssdprobe
