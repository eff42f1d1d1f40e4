#include "safety/restore.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/aligned_buffer.h"
#include "core/error.h"
#include "core/shell_command.h"
#include "core/output.h"
#include "core/probe_data.h"
#include "core/unique_fd.h"
#include "core/units.h"
#include "device/target.h"
#include "safety/confirm.h"
#include "safety/device_identity.h"
#include "safety/exclusive_use.h"
#include "safety/journal_dir.h"
#include "safety/journal_index.h"
#include "safety/zone_restore.h"

namespace ssdprobe {
namespace {

void pread_all(int fd, std::byte* data, size_t length, uint64_t offset, const char* doing) {
  size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd, data + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw os_error(fmt::format("{} {} bytes at offset {}", doing, length, offset), n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
}

// A journal whose commit is missing: harmless when its state proves the
// device was never written, otherwise kept, with what the user can do.
RestoreReport handle_uncommitted(const RestoreRequest& request, int journal_fd, const JournalContents& contents) {
  const std::string name = request.journal.string();
  if (!contents.writes_may_have_started) {
    RestoreReport report;
    report.nothing_to_restore = true;
    const bool removed = remove_journal_if_same(request.journal, journal_fd);
    if (removed) unregister_journal(default_journal_index(), request.journal);
    report.message = fmt::format("{}: the journal was never committed ({}), so ssdprobe had not written to {}; "
                                 "nothing to restore{}",
                                 name, contents.incomplete_reason, contents.identity.path,
                                 removed ? ", journal removed" : "");
    return report;
  }
  const JournalIdentity& id = contents.identity;
  throw Error(ErrorCategory::refused,
              fmt::format("{} has lost its end ({}), but it had been committed: ssdprobe may have written to bytes "
                          "{}..{} of {}. The journal is kept. Its complete records cover {} of those {} bytes; "
                          "`ssdprobe restore --partial {}` puts them back, and the rest of the range must be "
                          "restored from a backup",
                          name, contents.incomplete_reason, id.window_offset, id.window_offset + id.window_length,
                          id.path, contents.recorded_bytes(), id.window_length, shell_quote(name)));
}

// The device, opened once for writing; the descriptor must be the node the
// path named when it was classified (no swap in between).
UniqueFd open_device_checked(const Target& target) {
  const bool block = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  if (block) refuse_if_in_use(target.topology);
  UniqueFd fd(open_device_for_writing(target.path, block));
  if (!fd.valid()) throw os_error("cannot open " + target.path + " for restoring (is it mounted or in use?)", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw os_error(target.path, errno);
  const bool same = block ? st.st_rdev == target.node.rdev
                          : st.st_dev == target.node.dev && st.st_ino == target.node.ino;
  if (!same) throw Error(ErrorCategory::refused, target.path + " changed while it was being opened; try again");
  if (!block) refuse_file_in_use(target.path, fd.get());
  return fd;
}

std::string device_path_for(const RestoreRequest& request, const JournalIdentity& id) {
  if (!request.device.empty()) return request.device;
  // The canonical path is absolute: a journal of a file made in another
  // directory never resolves against the directory restore runs in.
  return id.canonical_path.empty() ? id.path : id.canonical_path;
}

// Bytes that are neither the journal's nor ssdprobe's test data were
// written by someone else after the run: the disk was reused, and the old
// content would overwrite newer data.
// A journal from before test data was tagged cannot tell test data from
// someone else's: the check is skipped (describe_restore says so).
void refuse_foreign_content(const RestoreRequest& request, const JournalContents& contents, const WindowCensus& census,
                            const std::string& path) {
  if (census.foreign_bytes == 0 || request.force || !contents.identity.probe_data_tagged) return;
  throw Error(ErrorCategory::refused,
              fmt::format("refusing to restore {} onto {}: {} bytes of its window (the first at offset {}) are "
                          "neither the content the journal saved nor ssdprobe's test data, so the device was written "
                          "since the run (was the disk reused?). Restoring would overwrite them with the old content; "
                          "give --force if that is what you want",
                          request.journal.string(), path, census.foreign_bytes, census.first_foreign_offset));
}

// A version 1 journal binds only size and serial: on a device without a
// serial (loop and virtio devices have none) nothing tells the journaled
// device from another of the same size, such as a loop device re-attached to
// another file, whose content the restore would overwrite.
void refuse_unproven_device(const RestoreRequest& request, const JournalIdentity& journaled,
                            const JournalIdentity& now, const std::string& path) {
  const auto missing = unproven_version1_binding(journaled, now);
  if (!missing || request.force) return;
  throw Error(ErrorCategory::refused,
              fmt::format("refusing to restore {} onto {} without --force: the journal was made by an earlier "
                          "ssdprobe (journal version 1), which bound only the device's size and serial, and {} (loop "
                          "and virtio devices have none). So nothing shows that {} is the device the journal was made "
                          "for: another device of the same size, such as a loop device re-attached to another file, "
                          "looks the same, and restoring would overwrite its bytes {} to {}. If you are sure {} is the "
                          "journaled device, give --force",
                          request.journal.string(), path, *missing, path, journaled.window_offset,
                          journaled.window_offset + journaled.window_length, path));
}

std::string describe_restore(const JournalContents& contents, const WindowCensus& census, const std::string& path,
                             const std::string& journal) {
  const JournalIdentity& id = contents.identity;
  std::string text = fmt::format("ssdprobe will WRITE the content saved in {} back to {}\n", printable(journal),
                                 printable(path));
  text += fmt::format("  model {}  serial {}  size {} ({} bytes)\n", id.model.empty() ? "-" : printable(id.model),
                      id.serial.empty() ? "-" : printable(id.serial), format_size(id.size_bytes), id.size_bytes);
  text += fmt::format("  byte range {} to {} ({} bytes), saved at {}\n", id.window_offset,
                      id.window_offset + contents.recorded_bytes(), contents.recorded_bytes(), id.created_at);
  if (!id.probe_data_tagged) {
    return text + fmt::format("  the range holds now: {} bytes already as saved, {} bytes that differ (this journal is "
                              "from a version that did not tag its test data: who wrote them cannot be told)\n",
                              census.saved_bytes, census.test_bytes + census.foreign_bytes);
  }
  text += fmt::format("  the range holds now: {} bytes of ssdprobe test data, {} bytes already as saved",
                      census.test_bytes, census.saved_bytes);
  if (census.foreign_bytes > 0) {
    text += fmt::format(", {} bytes written by someone else (--force)", census.foreign_bytes);
  }
  return text + "\n";
}

void retire_and_unregister(const std::filesystem::path& journal, int fd, RestoreReport& report) {
  if (!retire_journal(journal, fd, default_journal_index(), report)) return;
  report.message += fmt::format("; journal {} removed", journal.string());
}

}  // namespace

WindowCensus survey_window(int device_fd, int journal_fd, const std::string& journal_name,
                           const JournalContents& contents, RestoreBuffers& buffers) {
  WindowCensus census;
  for (const auto& record : contents.records) {
    for_each_record_piece(journal_fd, journal_name, record, buffers.journal(),
                          [&](uint64_t offset, std::span<const std::byte> saved) {
      pread_all(device_fd, buffers.device().data(), saved.size(), offset, "reading");
      for (size_t at = 0; at < saved.size(); at += kProbeSectorBytes) {
        const size_t length = std::min(kProbeSectorBytes, saved.size() - at);
        const std::span<const std::byte> now(buffers.device().data() + at, length);
        if (std::memcmp(now.data(), saved.data() + at, length) == 0) {
          census.saved_bytes += length;
        } else if (has_probe_tag(now)) {
          census.test_bytes += length;
        } else {
          if (census.foreign_bytes == 0) census.first_foreign_offset = offset + at;
          census.foreign_bytes += length;
        }
      }
    });
  }
  return census;
}

bool retire_journal(const std::filesystem::path& file, int fd, const std::filesystem::path& index,
                    RestoreReport& report) {
  std::string mark_error;
  try {
    mark_journal_restored(fd, file.string());
    // Marked: nothing is pending any more. Left listed, its entry would block
    // every write run once the journal's filesystem is unmounted.
    unregister_journal(index, file);
  } catch (const Error& e) {
    mark_error = e.what();
  }
  if (remove_journal_if_same(file, fd)) {
    unregister_journal(index, file);
    return true;
  }
  report.journal_kept = true;
  if (mark_error.empty()) {
    report.message += fmt::format("; the journal {} was not deleted (unlinking it failed, or its name now refers to "
                                  "another file): it is marked restored and no longer listed as pending, so no run "
                                  "waits for it and `ssdprobe restore` refuses it without --force; delete it",
                                  file.string());
  } else {
    report.message += fmt::format("; the journal {} could neither be marked restored ({}) nor deleted: delete it now, "
                                  "because `ssdprobe restore` on it would write the old content over anything "
                                  "written since", file.string(), mark_error);
  }
  return false;
}

RestoreReport restore_journal(const RestoreRequest& request) {
  const std::string name = request.journal.string();
  const UniqueFd journal = open_journal_for_reading(request.journal);
  check_journal_file(journal.get(), request.journal);
  const JournalContents contents = read_journal(journal.get(), name);
  if (contents.restored && !request.force) {
    throw Error(ErrorCategory::refused,
                fmt::format("{} is marked restored: its window was written back and verified once, and only deleting "
                            "it failed; the device may hold newer data there, which restoring again would overwrite. "
                            "Delete the journal, or give --force to write its content back anyway", name));
  }
  if (!contents.committed && !(request.partial && contents.writes_may_have_started)) {
    return handle_uncommitted(request, journal.get(), contents);
  }
  const std::string path = device_path_for(request, contents.identity);
  const Target target = open_target({.path = path, .open_for_io = false});
  const UniqueFd device = open_device_checked(target);
  const Region window{contents.identity.window_offset, contents.identity.window_length};
  const JournalIdentity now = identity_of(target, device.get(), window, contents.identity.region_given);
  const std::vector<std::string> differences = identity_differences(contents.identity, now, !request.device.empty());
  if (!differences.empty()) {
    std::string why;
    for (const auto& d : differences) why += "; " + d;
    throw Error(ErrorCategory::refused,
                fmt::format("refusing to restore {} onto {}: it is not the journaled device{}. If the drive moved, "
                            "name it with --device PATH (its path and device numbers are then not compared)",
                            name, path, why));
  }
  refuse_unproven_device(request, contents.identity, now, path);
  if (!contents.identity.reset_zones.empty()) {
    RestoreReport report = restore_zone_journal(request, contents, device.get(), path);
    retire_and_unregister(request.journal, journal.get(), report);
    return report;
  }
  RestoreBuffers buffers;
  const WindowCensus census = survey_window(device.get(), journal.get(), name, contents, buffers);
  refuse_foreign_content(request, contents, census, path);
  if (census.test_bytes == 0 && census.foreign_bytes == 0 && contents.committed) {
    RestoreReport report;
    report.message = fmt::format("nothing to write: the window of {} already holds the journal's saved content "
                                 "(compared byte for byte)", path);
    retire_and_unregister(request.journal, journal.get(), report);
    return report;
  }
  confirm_action(describe_restore(contents, census, path, name), "write it back to " + printable(path),
                 request.confirmation);
  RestoreReport report = restore_records(device.get(), journal.get(), name, contents, buffers);
  if (!contents.committed) {
    report.message += fmt::format(" on {} (--partial: the rest of the window was not in the journal); journal {} "
                                  "kept", path, name);
    return report;
  }
  report.message += " on " + path;
  retire_and_unregister(request.journal, journal.get(), report);
  return report;
}

}  // namespace ssdprobe
