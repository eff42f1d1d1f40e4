// restore_records (safety/restore.h): puts a journal's records back, writing
// only the logical blocks that do not already hold the saved content, then
// verifies every record and, when something does not read back as saved,
// names exactly which byte ranges and why.
//
// Comparing first matters beyond speed: on a sparse backing file whose
// filesystem filled up, rewriting ranges the probes never touched needs new
// blocks the filesystem no longer has, and the restore used to stop with
// ENOSPC although every byte of the window was intact.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "core/crc32c.h"
#include "core/error.h"
#include "safety/restore.h"

namespace ssdprobe {
namespace {

// Reads `length` bytes at `offset` whole; returns 0 or the errno of the call
// that failed (EIO for a device that ends early).
int pread_exact(int fd, std::byte* data, size_t length, uint64_t offset) {
  for (size_t done = 0; done < length;) {
    const ssize_t n = ::pread(fd, data + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

// Writes `length` bytes at `offset` whole; returns 0 or the errno of the call
// that failed, with `done` the bytes written before it.
int pwrite_exact(int fd, const std::byte* data, size_t length, uint64_t offset, size_t& done) {
  for (done = 0; done < length;) {
    const ssize_t n = ::pwrite(fd, data + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;  // a write of 0 bytes: the device or file is full
    done += static_cast<size_t>(n);
  }
  return 0;
}

// A write that failed: the bytes it did not put back and the error.
struct FailedWrite {
  uint64_t offset = 0, length = 0;
  int error = 0;
};

// Byte ranges of the window that do not hold the saved content, each with
// why; adjacent ranges with the same reason are one.
class Unrestored {
 public:
  void add(uint64_t offset, uint64_t length, const std::string& why) {
    if (!ranges_.empty() && ranges_.back().end == offset && ranges_.back().why == why) {
      ranges_.back().end += length;
    } else {
      ranges_.push_back({offset, offset + length, why});
    }
    bytes_ += length;
  }
  bool empty() const { return ranges_.empty(); }
  uint64_t bytes() const { return bytes_; }
  // "bytes A to B (why), bytes C to D (why) and 3 more ranges (12288 bytes)"
  std::string describe() const {
    constexpr size_t kNamed = 8;
    std::string text;
    uint64_t named_bytes = 0;
    for (size_t i = 0; i < std::min(kNamed, ranges_.size()); ++i) {
      const Range& r = ranges_[i];
      text += fmt::format("{}bytes {} to {} ({})", i == 0 ? "" : ", ", r.start, r.end, r.why);
      named_bytes += r.end - r.start;
    }
    if (ranges_.size() > kNamed) {
      text += fmt::format(" and {} more ranges ({} bytes)", ranges_.size() - kNamed, bytes_ - named_bytes);
    }
    return text;
  }

 private:
  struct Range {
    uint64_t start = 0, end = 0;
    std::string why;
  };
  std::vector<Range> ranges_;
  uint64_t bytes_ = 0;
};

struct WriteBack {
  int device_fd;
  uint32_t block;
  RestoreBuffers& buffers;
  RestoreReport& report;
  std::vector<FailedWrite> failed;  // in ascending offset order, as written
};

bool same_block(const std::byte* a, const std::byte* b, size_t at, uint32_t block) {
  return std::memcmp(a + at, b + at, block) == 0;
}

// One piece of a record: the runs of blocks that differ from `saved` are
// written (all of it when the device could not be read: writing is what
// matters, the comparison only saves work). A failed write is noted and the
// rest still written, so as much as can be is put back.
void write_back_piece(WriteBack& w, uint64_t offset, std::span<const std::byte> saved) {
  std::byte* now = w.buffers.device().data();
  const bool compared = pread_exact(w.device_fd, now, saved.size(), offset) == 0;
  const auto differs = [&](size_t at) { return !compared || !same_block(now, saved.data(), at, w.block); };
  for (size_t at = 0; at < saved.size();) {
    if (!differs(at)) {
      at += w.block;
      continue;
    }
    size_t end = at + w.block;
    while (end < saved.size() && differs(end)) end += w.block;
    size_t done = 0;
    const int error = pwrite_exact(w.device_fd, saved.data() + at, end - at, offset + at, done);
    w.report.bytes_written += done;
    ++w.report.writes;
    if (error != 0) w.failed.push_back({offset + at + done, end - at - done, error});
    at = end;
  }
}

// Why a block that does not read back as saved is not restored.
std::string reason_for(uint64_t offset, const std::vector<FailedWrite>& failed) {
  const auto covering = std::find_if(failed.begin(), failed.end(), [&](const FailedWrite& f) {
    return offset >= f.offset && offset < f.offset + f.length;
  });
  if (covering == failed.end()) return "they read back differently from the journal";
  return fmt::format("writing them failed: {}", std::strerror(covering->error));
}

// A record whose checksum did not match after the write-back, compared block
// by block with the journal to name what differs.
void name_differences(const WriteBack& w, int journal_fd, const std::string& journal_name, const JournalRecord& record,
                      Unrestored& out) {
  std::byte* now = w.buffers.device().data();
  for_each_record_piece(journal_fd, journal_name, record, w.buffers.journal(),
                        [&](uint64_t offset, std::span<const std::byte> saved) {
    const int error = pread_exact(w.device_fd, now, saved.size(), offset);
    if (error != 0) {
      out.add(offset, saved.size(), fmt::format("they could not be read back to check: {}", std::strerror(error)));
      return;
    }
    for (size_t at = 0; at < saved.size(); at += w.block) {
      if (!same_block(now, saved.data(), at, w.block)) out.add(offset + at, w.block, reason_for(offset + at, w.failed));
    }
  });
}

// Every record read back and checksummed; what does not match is named.
Unrestored verify(const WriteBack& w, int journal_fd, const std::string& journal_name,
                  const JournalContents& contents) {
  Unrestored unrestored;
  std::byte* now = w.buffers.device().data();
  for (const auto& record : contents.records) {
    uint32_t crc = 0;
    int error = 0;
    for (uint64_t done = 0; done < record.length && error == 0; done += RestoreBuffers::kPieceBytes) {
      const size_t length = std::min<uint64_t>(RestoreBuffers::kPieceBytes, record.length - done);
      error = pread_exact(w.device_fd, now, length, record.offset + done);
      crc = crc32c(std::span(now, length), crc);
    }
    if (error != 0 || crc != record.crc) name_differences(w, journal_fd, journal_name, record, unrestored);
  }
  return unrestored;
}

}  // namespace

RestoreReport restore_records(int device_fd, int journal_fd, const std::string& journal_name,
                              const JournalContents& contents, RestoreBuffers& buffers) {
  RestoreReport report;
  WriteBack w{device_fd, contents.identity.logical_block, buffers, report, {}};
  for (const auto& record : contents.records) {
    // Checksummed whole before any of it is written: a record that changed
    // since it was validated is refused, not half written.
    for_each_record_piece(journal_fd, journal_name, record, buffers.journal(), [](uint64_t, auto) {});
    // Pieces start at the journal buffer's first byte, which is aligned for O_DIRECT.
    for_each_record_piece(journal_fd, journal_name, record, buffers.journal(),
                          [&](uint64_t offset, std::span<const std::byte> saved) {
      write_back_piece(w, offset, saved);
    });
    ++report.records;
    report.bytes += record.length;
  }
  if (::fsync(device_fd) != 0) {
    throw os_error(fmt::format("flushing the device after writing back {} bytes (what was written may not be on "
                               "stable storage; the journal {} is kept)", report.bytes_written, journal_name), errno);
  }
  const Unrestored unrestored = verify(w, journal_fd, journal_name, contents);
  if (!unrestored.empty()) {
    throw Error(ErrorCategory::io,
                fmt::format("{} bytes of the window do not hold the saved content: {}; the other {} bytes do; the "
                            "journal {} is kept",
                            unrestored.bytes(), unrestored.describe(), report.bytes - unrestored.bytes(),
                            journal_name));
  }
  report.message = fmt::format("restored and verified {} bytes in {} ranges ({} bytes written back, {} already as "
                               "saved)", report.bytes, report.records, report.bytes_written,
                               report.bytes - report.bytes_written);
  return report;
}

}  // namespace ssdprobe
