#include "layout/file_audit.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/error.h"
#include "core/output.h"
#include "core/plural.h"
#include "core/unique_fd.h"
#include "core/units.h"
#include "layout/fiemap.h"

namespace ssdprobe {
namespace {

constexpr int kMaxDirectoryDepth = 64;
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

// Extents whose fe_physical is no offset on a disk are all "unknown".
void mark_unknown(std::vector<FileExtent>& extents) {
  for (FileExtent& e : extents) e.flags |= FIEMAP_EXTENT_UNKNOWN;
}

FileExtentReport read_one(int fd, const std::string& path, uint64_t size, const FileExtentsAudit& audit) {
  FileExtentReport report;
  report.path = path;
  report.extent_size_hint = extent_size_hint(fd);
  FiemapResult map = read_fiemap(fd, printable(path));
  if (!audit.filesystem.offsets_unknown.empty()) mark_unknown(map.extents);
  report.extents_cut = map.cut;
  report.judgement = judge_extents(map.extents, size, audit.filesystem.disk_start, audit.units);
  return report;
}

// Walks a directory tree on one filesystem: regular files are read, links
// and other filesystems' mounts are counted and never entered.
class Walker {
 public:
  Walker(FileExtentsAudit& audit, dev_t dev) : audit_(audit), dev_(dev) {}

  void directory(int fd, const std::string& path, int depth) {
    DIR* dir = ::fdopendir(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
    if (dir == nullptr) throw os_error("reading directory " + printable(path), errno);
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());  // the same order every run
    for (const std::string& name : names) {
      if (audit_.cut) return;
      entry(fd, name, path + "/" + name, depth);
    }
  }

 private:
  void entry(int dirfd, const std::string& name, const std::string& path, int depth) {
    struct stat st {};
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return unreadable(path, errno);
    if (S_ISLNK(st.st_mode)) return void(++audit_.skipped_links);
    if (st.st_dev != dev_) return void(++audit_.skipped_mounts);
    if (S_ISDIR(st.st_mode)) {
      if (depth >= kMaxDirectoryDepth) return void(++audit_.skipped_special);
      const UniqueFd sub(::openat(dirfd, name.c_str(), kOpenFlags | O_DIRECTORY | O_NOFOLLOW));
      if (!sub.valid()) return unreadable(path, errno);
      return directory(sub.get(), path, depth + 1);
    }
    if (!S_ISREG(st.st_mode)) return void(++audit_.skipped_special);
    if (audit_.files.size() >= kMaxAuditFiles) return void(audit_.cut = true);
    const UniqueFd file(::openat(dirfd, name.c_str(), kOpenFlags | O_NOFOLLOW));
    if (!file.valid()) return unreadable(path, errno);
    struct stat now {};
    // Swapped for something else since the fstatat: not read.
    if (::fstat(file.get(), &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != st.st_ino) return;
    try {
      audit_.files.push_back(read_one(file.get(), path, static_cast<uint64_t>(now.st_size), audit_));
    } catch (const Error& e) {
      if (e.category() == ErrorCategory::interrupted) throw;
      unreadable(path, e.what());
    }
  }

  void unreadable(const std::string& path, int err) { unreadable(path, std::string(std::strerror(err))); }
  void unreadable(const std::string& path, const std::string& why) {
    FileExtentReport report;
    report.path = path;
    report.error = why;
    audit_.files.push_back(std::move(report));
  }

  FileExtentsAudit& audit_;
  dev_t dev_;
};

void add_to_total(ExtentJudgement& total, const ExtentJudgement& j) {
  total.file_bytes += j.file_bytes;
  total.extent_count += j.extent_count;
  total.merged_count += j.merged_count;
  total.data_bytes += j.data_bytes;
  total.hole_bytes += j.hole_bytes;
  total.largest_data_extent = std::max(total.largest_data_extent, j.largest_data_extent);
  for (size_t i = 0; i < j.shares.size() && i < total.shares.size(); ++i) {
    total.shares[i].misaligned_bytes += j.shares[i].misaligned_bytes;
    total.shares[i].misaligned_extents += j.shares[i].misaligned_extents;
  }
  for (const auto& entry : j.unjudged) {  // not a structured binding: clang 14 cannot capture one
    auto it = std::find_if(total.unjudged.begin(), total.unjudged.end(),
                           [&](const auto& p) { return p.first == entry.first; });
    if (it == total.unjudged.end()) total.unjudged.push_back(entry);
    else it->second += entry.second;
  }
}

}  // namespace

std::vector<ExtentUnit> extent_units(const AuditUnits& units) {
  std::vector<ExtentUnit> out = {{"4 KiB", 4096, Severity::error}};
  if (units.read_page) out.push_back({"read page", *units.read_page, Severity::warning});
  if (units.write_unit) out.push_back({"write unit", *units.write_unit, Severity::warning});
  return out;
}

FileExtentsAudit read_file_extents(const std::string& path, const AuditUnits& units) {
  FileExtentsAudit audit;
  audit.root = path;
  audit.units = extent_units(units);
  const UniqueFd fd(::open(path.c_str(), kOpenFlags));
  if (!fd.valid()) throw os_error("opening " + printable(path) + " to read its extents", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw os_error(printable(path), errno);
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    throw Error(ErrorCategory::target, fmt::format("{} is neither a regular file nor a directory: its extents "
                                                   "cannot be audited", printable(path)));
  }
  audit.filesystem = file_filesystem(fd.get(), printable(path));
  audit.directory = S_ISDIR(st.st_mode);
  if (audit.directory) {
    audit.directory_hint = extent_size_hint(fd.get());
    Walker(audit, st.st_dev).directory(fd.get(), path, 0);
  } else {
    audit.files.push_back(read_one(fd.get(), path, static_cast<uint64_t>(st.st_size), audit));
  }
  for (const ExtentUnit& u : audit.units) audit.total.shares.push_back({u, 0, 0});
  for (const FileExtentReport& f : audit.files) add_to_total(audit.total, f.judgement);
  return audit;
}

}  // namespace ssdprobe
