#include "safety/exclusive_use.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/interrupt.h"
#include "device/sysfs_text.h"
#include "safety/stacked_storage.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;

// "MAJ:MIN" -> kernel name, for the disk and each of its partitions.
std::map<std::string, std::string> block_numbers(const fs::path& disk_dir) {
  std::map<std::string, std::string> numbers;
  numbers[read_sysfs_text(disk_dir / "dev")] = disk_dir.filename();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(disk_dir, ec)) {
    if (fs::exists(entry.path() / "partition")) numbers[read_sysfs_text(entry.path() / "dev")] = entry.path().filename();
  }
  return numbers;
}

void add_holders(const fs::path& dir, const std::string& name, std::vector<DeviceUser>& users) {
  std::error_code ec;
  for (const auto& holder : fs::directory_iterator(dir / "holders", ec)) {
    users.push_back({name, "held by " + holder.path().filename().string()});
  }
}

// mountinfo field 3 is MAJ:MIN of the mounted device, field 5 the mount point.
void add_mounts(const std::string& mountinfo, const std::map<std::string, std::string>& numbers,
                std::vector<DeviceUser>& users) {
  std::ifstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, number, root, mount_point;
    fields >> id >> parent >> number >> root >> mount_point;
    const auto found = numbers.find(number);
    if (found != numbers.end()) users.push_back({found->second, "mounted at " + mount_point});
  }
}

void add_swaps(const std::string& swaps, const std::map<std::string, std::string>& numbers,
               std::vector<DeviceUser>& users) {
  std::ifstream in(swaps);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) continue;
    const auto found = numbers.find(dev_number_text(st.st_rdev));
    if (found != numbers.end()) users.push_back({found->second, "in use as swap"});
  }
}

// Loop devices do not register as holders (stacked_storage.h): a loop over
// the disk or one of its partitions is a user like any other.
void add_loops_over(const std::map<std::string, std::string>& numbers, const std::vector<AttachedLoop>& loops,
                    std::vector<DeviceUser>& users) {
  for (const auto& loop : loops) {
    if (!loop.backing_is_block) continue;
    const auto found = numbers.find(dev_number_text(loop.backing_rdev));
    if (found != numbers.end()) {
      users.push_back({found->second, fmt::format("backs loop device /dev/{} (from byte {})", loop.name, loop.offset)});
    }
  }
}

std::vector<DeviceUser> direct_users(const std::string& disk_name, const std::string& sysfs_root,
                                     const std::string& mountinfo, const std::string& swaps,
                                     const std::vector<AttachedLoop>& loops) {
  const fs::path disk_dir = fs::path(sysfs_root) / "block" / disk_name;
  std::vector<DeviceUser> users;
  const auto numbers = block_numbers(disk_dir);
  add_holders(disk_dir, disk_name, users);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(disk_dir, ec)) {
    if (fs::exists(entry.path() / "partition")) add_holders(entry.path(), entry.path().filename(), users);
  }
  add_mounts(mountinfo, numbers, users);
  add_swaps(swaps, numbers, users);
  add_loops_over(numbers, loops, users);
  return users;
}

bool same_backing(const AttachedLoop& a, const AttachedLoop& b) {
  if (!a.backing_found || !b.backing_found || a.backing_is_block != b.backing_is_block) return false;
  return a.backing_is_block ? a.backing_rdev == b.backing_rdev
                            : a.backing_dev == b.backing_dev && a.backing_ino == b.backing_ino;
}

// Two loop devices over one backing file are two names for the same bytes
// where their ranges meet: the other one's users (a mount, swap, a holder)
// use this loop's storage too.
void add_sibling_loop_users(const std::string& disk_name, const std::string& sysfs_root, const std::string& mountinfo,
                            const std::string& swaps, const std::vector<AttachedLoop>& loops,
                            std::vector<DeviceUser>& users) {
  const auto self = std::find_if(loops.begin(), loops.end(),
                                 [&](const AttachedLoop& l) { return l.name == disk_name; });
  if (self == loops.end()) return;
  for (const auto& other : loops) {
    if (other.name == self->name || !same_backing(*self, other)) continue;
    if (other.offset >= self->offset + self->size || self->offset >= other.offset + other.size) continue;
    for (const auto& user : direct_users(other.name, sysfs_root, mountinfo, swaps, loops)) {
      users.push_back({disk_name, fmt::format("shares its backing file {} with /dev/{}, whose {} is {}",
                                              self->backing_path, other.name, user.device, user.how)});
    }
  }
}

}  // namespace

std::vector<DeviceUser> find_device_users(const std::string& disk_name, const std::string& sysfs_root,
                                          const std::string& mountinfo, const std::string& swaps) {
  const auto loops = attached_loops(sysfs_root);
  auto users = direct_users(disk_name, sysfs_root, mountinfo, swaps, loops);
  add_sibling_loop_users(disk_name, sysfs_root, mountinfo, swaps, loops, users);
  return users;
}

void refuse_if_in_use(const Topology& target, const std::string& sysfs_root, const std::string& mountinfo,
                      const std::string& swaps) {
  if (target.disk_name.empty()) return;
  std::vector<DeviceUser> users;
  for (auto& user : find_device_users(target.disk_name, sysfs_root, mountinfo, swaps)) {
    // A partition target overlaps only itself and the whole disk; its
    // siblings' users do not touch the written range.
    const bool overlaps = target.partition_name.empty() || user.device == target.partition_name ||
                          user.device == target.disk_name;
    if (overlaps) users.push_back(user);
  }
  if (users.empty()) return;
  std::string list;
  for (const auto& user : users) list += fmt::format("{}{} {}", list.empty() ? "" : "; ", user.device, user.how);
  throw Error(ErrorCategory::refused,
              fmt::format("refusing to write to {}: the drive is in use ({}). Unmount it, swapoff, or stop the "
                          "holder first",
                          target.partition_name.empty() ? target.disk_name : target.partition_name, list));
}

namespace {

// Loop devices whose backing file is the file open at `fd`, compared by
// device and inode as the kernel reports them (attached_loops): the path
// sysfs shows is the one the file had when attached.
std::vector<std::string> loops_backed_by(int fd, const std::string& sysfs_root) {
  std::vector<std::string> names;
  struct stat file {};
  if (::fstat(fd, &file) != 0) return names;
  for (const auto& loop : attached_loops(sysfs_root)) {
    if (!loop.backing_is_block && loop.backing_found && loop.backing_dev == file.st_dev &&
        loop.backing_ino == file.st_ino) {
      names.push_back(loop.name);
    }
  }
  return names;
}

}  // namespace

void refuse_file_in_use(const std::string& path, int fd, const std::string& sysfs_root) {
  const auto loops = loops_backed_by(fd, sysfs_root);
  if (!loops.empty()) {
    std::string list;
    for (const auto& loop : loops) list += (list.empty() ? "/dev/" : ", /dev/") + loop;
    throw Error(ErrorCategory::refused, fmt::format("refusing to write to {}: it is the backing file of {}; detach it "
                                                    "(losetup -d) or probe the loop device instead",
                                                    path, list));
  }
  // A write lease is granted only when no other descriptor on the file is
  // open anywhere; it is released at once (holding it would stall others).
  if (::fcntl(fd, F_SETLEASE, F_WRLCK) == 0) {
    ::fcntl(fd, F_SETLEASE, F_UNLCK);
  } else if (errno == EAGAIN || errno == EBUSY) {
    throw Error(ErrorCategory::refused, fmt::format("refusing to write to {}: another process has it open; close it "
                                                    "first",
                                                    path));
  }
  // Other errors (a filesystem without leases): the check cannot tell, and
  // the journal still protects the content.
}

int open_device_for_writing(const std::string& path, bool exclusive) {
  constexpr int kBusyRetries = 20;
  constexpr useconds_t kBusyPauseUs = 100'000;  // 2 s in all
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC | (exclusive ? O_EXCL : 0));
    if (fd >= 0 || errno != EBUSY || !exclusive || attempt == kBusyRetries || interrupt_requested()) return fd;
    ::usleep(kBusyPauseUs);
  }
}

}  // namespace ssdprobe
