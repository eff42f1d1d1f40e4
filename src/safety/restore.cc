#include "safety/restore.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/aligned_buffer.h"
#include "core/crc32c.h"
#include "core/error.h"
#include "core/unique_fd.h"
#include "device/target.h"

namespace ssdprobe {
namespace {

void pwrite_all(int fd, const std::byte* data, size_t length, uint64_t offset) {
  size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pwrite(fd, data + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw os_error(fmt::format("restoring {} bytes at offset {}", length, offset), n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
}

void pread_all(int fd, std::byte* data, size_t length, uint64_t offset) {
  size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd, data + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw os_error(fmt::format("verifying {} bytes at offset {}", length, offset), n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
}

// The device must be the journaled one: same size, and the same serial where
// both are known (device names move between boots; serials do not).
void check_identity(const JournalIdentity& id, const std::string& path, const Target& target) {
  if (target.topology.size_bytes != id.size_bytes) {
    throw Error(ErrorCategory::refused,
                fmt::format("{} has {} bytes but the journal was made for a device of {} bytes; if the drive moved, "
                            "name it with --device",
                            path, target.topology.size_bytes, id.size_bytes));
  }
  if (!id.serial.empty() && !target.topology.serial.empty() && id.serial != target.topology.serial) {
    throw Error(ErrorCategory::refused, fmt::format("{} has serial '{}' but the journal was made for serial '{}'",
                                                    path, target.topology.serial, id.serial));
  }
}

}  // namespace

RestoreReport restore_records(int fd, const std::filesystem::path& journal, const JournalContents& contents) {
  RestoreReport report;
  AlignedBuffer buffer(kJournalMaxRecord);
  for (const auto& record : contents.records) {
    const std::vector<std::byte> data = read_record_data(journal, record);
    std::memcpy(buffer.data(), data.data(), data.size());
    pwrite_all(fd, buffer.data(), data.size(), record.offset);
    ++report.records;
    report.bytes += record.length;
  }
  if (::fsync(fd) != 0) throw os_error("flushing the restored device", errno);
  for (const auto& record : contents.records) {
    pread_all(fd, buffer.data(), record.length, record.offset);
    if (crc32c(std::span(buffer.data(), record.length)) != record.crc) {
      throw Error(ErrorCategory::io, fmt::format("verification failed: {} bytes at offset {} do not read back as "
                                                 "journaled; the journal {} is kept",
                                                 record.length, record.offset, journal.string()));
    }
  }
  report.message = fmt::format("restored and verified {} bytes in {} ranges", report.bytes, report.records);
  return report;
}

RestoreReport restore_journal(const std::filesystem::path& journal, const std::string& device_override) {
  const JournalContents contents = read_journal(journal);
  if (!contents.committed) {
    RestoreReport report;
    report.nothing_to_restore = true;
    report.message = fmt::format("{}: the journal was never committed ({}), so ssdprobe had not written to {}; "
                                 "nothing to restore, journal removed",
                                 journal.string(), contents.incomplete_reason, contents.identity.path);
    std::filesystem::remove(journal);
    return report;
  }
  const std::string path = device_override.empty() ? contents.identity.path : device_override;
  const Target target = open_target({.path = path, .open_for_io = false});
  check_identity(contents.identity, path, target);
  const bool block = target.kind == TargetKind::block || target.kind == TargetKind::partition;
  const int fd = ::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC | (block ? O_EXCL : 0));
  if (fd < 0) throw os_error("cannot open " + path + " for restoring (is it mounted or in use?)", errno);
  UniqueFd device(fd);
  RestoreReport report = restore_records(device.get(), journal, contents);
  std::filesystem::remove(journal);
  report.message += fmt::format(" on {}; journal {} removed", path, journal.string());
  return report;
}

std::vector<std::filesystem::path> pending_journals(const std::filesystem::path& dir, const std::string& path,
                                                    uint64_t rdev) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".ssdpj") continue;
    try {
      const JournalIdentity id = read_journal_identity(entry.path());
      if ((rdev != 0 && id.rdev == rdev) || id.path == path) found.push_back(entry.path());
    } catch (const Error&) {
      found.push_back(entry.path());  // unreadable: let the user decide, never ignore it
    }
  }
  return found;
}

}  // namespace ssdprobe
