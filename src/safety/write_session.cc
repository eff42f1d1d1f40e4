#include "safety/write_session.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fmt/format.h>

#include "core/aligned_buffer.h"
#include "core/block_math.h"
#include "core/clock_text.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "core/shell_command.h"
#include "device/sysfs_text.h"
#include "safety/device_identity.h"
#include "safety/exclusive_use.h"
#include "safety/journal_index.h"
#include "safety/stacked_storage.h"
#include "safety/zone_choice.h"
#include "safety/zone_reset.h"
#include "safety/zoned_refusal.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;
constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kDefaultWindow = 256 * kMiB;
constexpr uint64_t kJournalChunk = 4 * kMiB;
constexpr uint64_t kZoneJournalBytes = 64 * 1024;  // a header listing a few zones, with room to spare

// Every device number on the target's disk: the disk and its partitions.
std::vector<dev_t> disk_device_numbers(const Topology& t) {
  std::vector<dev_t> numbers;
  const fs::path disk = fs::path("/sys/block") / t.disk_name;
  auto add = [&](const fs::path& dev_file) {
    if (const dev_t number = read_sysfs_dev(dev_file)) numbers.push_back(number);
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
  refuse_zoned_writes(target);  // before the claim: nothing is opened for writing
  claim(target);
  const bool zoned = zone_safe_writes_apply(target);
  if (zoned) choose_zones(target);
  identity_ = identity_of(target, device_.get(), window_, options_.region_given);
  for (const Zone& z : zones_) identity_.reset_zones.push_back({z.start_bytes, z.length_bytes});
  // A zone-safe run always journals its zones (a few hundred bytes), with
  // --no-preserve too: after a crash the journal is the only record of which
  // zones hold test data, and a zone reset costs nothing to save.
  if (!options_.preserve && !zoned) return;
  options_.preserve = true;
  create_journal_dir(options_.journal_dir, &created_dirs_);
  check_journal_location(target);
  check_journal_dir_capacity(options_.journal_dir, zoned ? kZoneJournalBytes : window_.length,
                             options_.journal_dir_options);
  refuse_pending_journals();
}

// Through the claimed descriptor: the zones are chosen on the device that
// will be written, after nothing else can open it for writing.
// With --region, only zones wholly inside it may be chosen.
void WriteSession::choose_zones(const Target& target) {
  const std::vector<Zone> report = read_zone_report(device_.get(), path_);
  const ZonedLimits& limits = *target.topology.zoned;
  const Region inside = options_.region_given ? window_ : Region{0, 0};
  zones_ = choose_write_zones(report, {.wanted = options_.zones_wanted, .max_open_zones = limits.max_open_zones,
                                       .max_active_zones = limits.max_active_zones, .inside = inside}, path_);
  const Zone& last = zones_.back();
  window_ = {zones_.front().start_bytes, last.start_bytes + last.length_bytes - zones_.front().start_bytes};
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
  lock_storage(target);
}

// Two write runs on the same bytes through two names (two loop devices over
// one file, a loop over the target disk, a file and a hard link to it) would
// each save the other's test data as "original". The O_EXCL claim is per
// device node, so the bytes behind a loop target or file are claimed too,
// for the whole run: a loop's backing device exclusively (O_EXCL: refused
// while it or a partition of it is mounted or claimed by another run), a
// backing file or file target by an open-file-description write lock on the
// window's range, so runs on ranges that do not meet proceed.
void WriteSession::lock_storage(const Target& target) {
  if (target.topology.transport == "loop") {
    lock_loop_backing(target);
  } else if (target.kind == TargetKind::file) {
    lock_file_range(device_.get(), window_.offset, path_);
  }
  // A disk or partition that is not a loop: O_EXCL on it is the lock.
}

void WriteSession::lock_loop_backing(const Target& target) {
  const auto loops = attached_loops();
  const auto self = std::find_if(loops.begin(), loops.end(),
                                 [&](const AttachedLoop& l) { return l.name == target.topology.disk_name; });
  if (self == loops.end()) {
    throw Error(ErrorCategory::refused, fmt::format("refusing to write to {}: the loop device was detached", path_));
  }
  if (self->backing_is_block) {
    const std::string node = block_device_node(self->backing_rdev);
    const std::string what = fmt::format("refusing to write to {}: its backing device {} cannot be claimed "
                                         "exclusively", path_, node.empty() ? self->backing_path : node);
    storage_lock_ = UniqueFd(node.empty() ? -1 : open_device_for_writing(node, true));
    if (node.empty()) errno = ENODEV;
    const int err = errno;
    struct stat st {};
    if (storage_lock_.valid() && ::fstat(storage_lock_.get(), &st) == 0 && st.st_rdev == self->backing_rdev) return;
    if (storage_lock_.valid()) throw Error(ErrorCategory::refused, what + " (its node names another device)");
    if (err == EBUSY) throw Error(ErrorCategory::refused, what + " (in use: mounted, held, or written by another run)");
    throw os_error(what, err);
  }
  storage_lock_ = UniqueFd(::open(self->backing_path.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK));
  struct stat st {};
  const bool same = storage_lock_.valid() && ::fstat(storage_lock_.get(), &st) == 0 &&
                    st.st_dev == self->backing_dev && st.st_ino == self->backing_ino;
  if (!same) {
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to write to {}: its backing file can no longer be opened as {} (deleted or "
                            "renamed since it was attached), so the bytes behind it cannot be locked against another "
                            "name for them", path_, self->backing_path));
  }
  lock_file_range(storage_lock_.get(), self->offset + target.topology.partition_start_bytes + window_.offset,
                  self->backing_path);
}

void WriteSession::lock_file_range(int fd, uint64_t start, const std::string& file) const {
  struct flock range {};
  range.l_type = F_WRLCK;
  range.l_whence = SEEK_SET;
  range.l_start = static_cast<off_t>(start);
  range.l_len = static_cast<off_t>(window_.length);
  if (::fcntl(fd, F_OFD_SETLK, &range) == 0) return;
  const int err = errno;
  if (err == EAGAIN || err == EACCES) {
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to write to {}: another process holds a lock on bytes {} to {} of {} (another "
                            "ssdprobe write run through another name for the same bytes, or a virtual machine using "
                            "the file); wait for it to finish", path_, start, start + window_.length, file));
  }
  throw os_error(fmt::format("refusing to write to {}: bytes {} to {} of {} cannot be locked against another name "
                             "for them", path_, start, start + window_.length, file), err);
}

// The journal must not live on the bytes it protects: not on the target's
// disk, nor on anything stacked on it (a loop device over the disk, a
// filesystem in a loop over the target file, dm or md over a partition).
void WriteSession::check_journal_location(const Target& target) const {
  struct stat journal {};
  if (::stat(options_.journal_dir.c_str(), &journal) != 0) throw os_error(options_.journal_dir.string(), errno);
  const StorageChain beneath = storage_beneath(journal.st_dev);
  const auto on_device = [&](dev_t number) {
    return std::find(beneath.devices.begin(), beneath.devices.end(), number) != beneath.devices.end();
  };
  const auto on_file = [&](uint64_t dev, uint64_t ino) {
    return ino != 0 && std::find(beneath.backing_files.begin(), beneath.backing_files.end(),
                                 std::pair<dev_t, ino_t>(dev, ino)) != beneath.backing_files.end();
  };
  bool on_target = on_file(identity_.backing_dev, identity_.backing_ino);
  if (target.kind == TargetKind::file) {
    on_target |= identity_.backing_dev == journal.st_dev;
  } else {
    for (dev_t number : disk_device_numbers(topology_)) on_target |= on_device(number);
  }
  if (on_target) {
    throw Error(ErrorCategory::refused,
                fmt::format("the journal directory {} is on the device being written (or on storage stacked on it); "
                            "choose one on another filesystem with --journal DIR",
                            options_.journal_dir.string()));
  }
}

// Journals are compared in disk coordinates: a pending journal of a
// partition blocks a run on its whole disk where their windows overlap, and
// the reverse.
void WriteSession::refuse_pending_journals() const {
  for (const auto& pending : all_pending_journals(options_.journal_dir, options_.journal_index)) {
    if (!pending.readable) {
      throw Error(ErrorCategory::refused,
                  fmt::format("{} cannot be read ({}); it may hold the only copy of a drive's content, so no write run "
                              "starts until it is restored with `ssdprobe restore {}` or moved away",
                              pending.file.string(), pending.problem, shell_quote(pending.file.string())));
    }
    if (!windows_share_storage(pending.identity, identity_)) continue;
    throw Error(ErrorCategory::refused,
                fmt::format("{} has an unrestored journal from an earlier write run whose window overlaps this one "
                            "(journal of {}); restore it first with: ssdprobe restore {}",
                            path_, pending.identity.path, shell_quote(pending.file.string())));
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
  if (zoned()) {
    plan.zones = fmt::format("{} empty zone{} ({} each, capacity {}) from byte {}", zones_.size(),
                             zones_.size() == 1 ? "" : "s", format_exact_size(zones_.front().length_bytes),
                             format_exact_size(zones_.front().capacity_bytes), zones_.front().start_bytes);
  }
  return plan;
}

void WriteSession::save() {
  if (!options_.preserve) return;
  if (!zoned()) restore_buffers_ = std::make_unique<RestoreBuffers>();  // before the first write: see RestoreBuffers
  const std::string base = fs::path(path_).filename().string();
  journal_path_ = options_.journal_dir / fmt::format("{}-{}-{}.ssdpj", base, utc_now_text(kCompactUtc), ::getpid());
  JournalWriter writer(journal_path_, identity_);
  try {
    register_journal(options_.journal_index, journal_path_);
    if (!zoned()) copy_window_to(writer);  // a zone journal lists its zones in the identity
    writer.commit();
    writer.mark_writes_started();
  } catch (...) {
    // Nothing was written to the device yet: an unfinished journal is
    // useless, and left behind it would block the next run.
    remove_journal_if_same(journal_path_, writer.fd());
    unregister_journal(options_.journal_index, journal_path_);
    throw;
  }
  journal_ = writer.release();
  saved_ = true;
  created_dirs_.keep();  // they held a journal: the next run expects them
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
                            name, differences.empty() ? "window or commit" : differences.front(), shell_quote(name)));
  }
  RestoreReport report = zoned() ? reset_zones_back(contents)
                                 : restore_records(device_.get(), journal_.get(), name, contents, *restore_buffers_);
  retire_journal(journal_path_, journal_.get(), options_.journal_index, report);
  journal_.reset();
  saved_ = false;
  return report;
}

// The zones were empty when chosen: a reset gives them back exactly.
RestoreReport WriteSession::reset_zones_back(const JournalContents& contents) {
  if (contents.identity.reset_zones != identity_.reset_zones) {
    throw Error(ErrorCategory::internal, fmt::format("the journal {} lists other zones than this run's; nothing was "
                                                     "reset, run: ssdprobe restore {}", journal_path_.string(),
                                                     shell_quote(journal_path_.string())));
  }
  reset_and_verify_zones(device_.get(), identity_.reset_zones, path_);
  RestoreReport report;
  report.records = zones_.size();
  report.message = fmt::format("reset {} zone{} and verified each empty with its write pointer at its start",
                               zones_.size(), zones_.size() == 1 ? "" : "s");
  return report;
}

}  // namespace ssdprobe
