#include "safety/device_identity.h"

#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>

#include "core/clock_text.h"
#include "core/error.h"
#include "device/sysfs_text.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;

// The kernel's world-wide name for a disk: NVMe namespaces have it at
// block/<disk>/wwid (EUI-64 or NGUID), SCSI/SATA disks at device/wwid.
std::string disk_wwid(const std::string& disk, const std::string& sysfs_root) {
  if (disk.empty()) return "";
  const fs::path block = fs::path(sysfs_root) / "class" / "block" / disk;
  std::string wwid = read_sysfs_text(block / "wwid");
  if (wwid.empty()) wwid = read_sysfs_text(block / "device" / "wwid");
  return wwid;
}

uint64_t disk_rdev(const std::string& disk, const std::string& sysfs_root) {
  if (disk.empty()) return 0;
  return read_sysfs_dev(fs::path(sysfs_root) / "class" / "block" / disk / "dev");
}

std::string canonical_or_absolute(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  return ec ? fs::absolute(path).lexically_normal().string() : canonical.string();
}

template <typename T>
void compare(std::vector<std::string>& out, const char* field, const T& journaled, const T& now) {
  if (journaled == now) return;
  out.push_back(fmt::format("{} is {} but the journal was made for {}", field, now, journaled));
}

void compare_text(std::vector<std::string>& out, const char* field, const std::string& journaled,
                  const std::string& now) {
  if (journaled == now) return;
  out.push_back(fmt::format("{} is '{}' but the journal was made for '{}'", field, now, journaled));
}

}  // namespace

JournalIdentity identity_of(const Target& target, int device_fd, const Region& window, bool region_given,
                            const std::string& sysfs_root) {
  struct stat st {};
  if (::fstat(device_fd, &st) != 0) throw os_error(target.path, errno);
  const Topology& t = target.topology;
  JournalIdentity id;
  id.path = target.path;
  id.canonical_path = canonical_or_absolute(target.path);
  id.size_bytes = t.size_bytes;
  id.logical_block = static_cast<uint32_t>(t.logical_block_size.value_or(512));
  id.model = t.model;
  id.serial = t.serial;
  id.window_offset = window.offset;
  id.window_length = window.length;
  id.region_given = region_given;
  id.created_at = utc_now_text(kCompactUtc);
  if (S_ISBLK(st.st_mode)) {
    id.rdev = st.st_rdev;
    id.disk = t.disk_name;
    id.disk_rdev = disk_rdev(t.disk_name, sysfs_root);
    id.wwid = disk_wwid(t.disk_name, sysfs_root);
    id.partition_start = t.partition_start_bytes;
    loop_info64 loop{};
    if (t.transport == "loop" && ::ioctl(device_fd, LOOP_GET_STATUS64, &loop) == 0) {
      id.backing_dev = loop.lo_device;
      id.backing_ino = loop.lo_inode;
      id.backing_offset = loop.lo_offset;
    }
  } else {
    id.backing_dev = st.st_dev;
    id.backing_ino = st.st_ino;
  }
  return id;
}

std::vector<std::string> identity_differences(const JournalIdentity& journaled, const JournalIdentity& now,
                                              bool device_named) {
  std::vector<std::string> out;
  compare(out, "size_bytes", journaled.size_bytes, now.size_bytes);
  if (journaled.canonical_path.empty()) {  // version 1 journal
    if (!journaled.serial.empty() && !now.serial.empty()) compare_text(out, "serial", journaled.serial, now.serial);
    return out;
  }
  if (!device_named) {
    compare_text(out, "canonical_path", journaled.canonical_path, now.canonical_path);
    compare(out, "rdev", journaled.rdev, now.rdev);
    compare(out, "disk_rdev", journaled.disk_rdev, now.disk_rdev);
  }
  compare(out, "logical_block", journaled.logical_block, now.logical_block);
  compare_text(out, "serial", journaled.serial, now.serial);
  compare_text(out, "wwid", journaled.wwid, now.wwid);
  compare(out, "partition_start", journaled.partition_start, now.partition_start);
  compare(out, "backing_dev", journaled.backing_dev, now.backing_dev);
  compare(out, "backing_ino", journaled.backing_ino, now.backing_ino);
  if (journaled.backing_offset_known) compare(out, "backing_offset", journaled.backing_offset, now.backing_offset);
  return out;
}

std::optional<std::string> unproven_version1_binding(const JournalIdentity& journaled, const JournalIdentity& now) {
  if (!journaled.canonical_path.empty()) return std::nullopt;  // version 2: bound by numbers, backing file, WWID
  if (!journaled.serial.empty() && !now.serial.empty()) return std::nullopt;  // compared by identity_differences
  if (journaled.serial.empty() && now.serial.empty()) {
    return std::string("neither the journal nor the device has a serial");
  }
  if (journaled.serial.empty()) return std::string("the journal recorded no serial");
  return std::string("the device reports no serial");
}

namespace {

bool ranges_overlap(uint64_t a_start, uint64_t a_length, uint64_t b_start, uint64_t b_length) {
  return a_start < b_start + b_length && b_start < a_start + a_length;
}

bool same_disk(const JournalIdentity& a, const JournalIdentity& b) {
  if (a.disk_rdev != 0 && a.disk_rdev == b.disk_rdev) return true;
  if (a.rdev != 0 && a.rdev == b.rdev) return true;
  // A version 1 journal knows only its path.
  return (a.canonical_path.empty() || b.canonical_path.empty()) && a.path == b.path;
}

bool same_backing_file(const JournalIdentity& a, const JournalIdentity& b) {
  return a.backing_ino != 0 && a.backing_dev == b.backing_dev && a.backing_ino == b.backing_ino;
}

}  // namespace

bool windows_share_storage(const JournalIdentity& a, const JournalIdentity& b) {
  // Journals are validated (journal.cc) and live identities come from the
  // kernel's sizes: these sums do not overflow.
  if (same_disk(a, b) && ranges_overlap(a.partition_start + a.window_offset, a.window_length,
                                        b.partition_start + b.window_offset, b.window_length)) {
    return true;
  }
  if (!same_backing_file(a, b)) return false;
  // A journal that did not record its loop's offset could be anywhere in the file.
  if (!a.backing_offset_known || !b.backing_offset_known) return true;
  // A partition of a loop device sits at its partition start in the loop.
  return ranges_overlap(a.backing_offset + a.partition_start + a.window_offset, a.window_length,
                        b.backing_offset + b.partition_start + b.window_offset, b.window_length);
}

}  // namespace ssdprobe
