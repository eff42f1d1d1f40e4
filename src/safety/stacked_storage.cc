#include "safety/stacked_storage.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "core/unique_fd.h"
#include "device/sysfs_text.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;
constexpr int kMaxDepth = 16;

uint64_t sysfs_number(const fs::path& file) {
  const std::string text = read_sysfs_text(file);
  try {
    return text.empty() ? 0 : std::stoull(text);
  } catch (const std::exception&) {
    return 0;
  }
}

void walk(dev_t dev, const std::string& sysfs_root, int depth, StorageChain& chain);

// A loop's backing: the block device it sits on, or the device holding its file.
void walk_loop_backing(const fs::path& loop_dir, const std::string& sysfs_root, int depth, StorageChain& chain) {
  const std::string backing = read_sysfs_text(loop_dir / "backing_file");
  struct stat st {};
  if (backing.empty() || ::stat(backing.c_str(), &st) != 0) return;
  if (S_ISBLK(st.st_mode)) {
    walk(st.st_rdev, sysfs_root, depth + 1, chain);
  } else {
    chain.backing_files.emplace_back(st.st_dev, st.st_ino);
    walk(st.st_dev, sysfs_root, depth + 1, chain);
  }
}

void walk(dev_t dev, const std::string& sysfs_root, int depth, StorageChain& chain) {
  if (dev == 0 || depth > kMaxDepth) return;
  if (std::find(chain.devices.begin(), chain.devices.end(), dev) != chain.devices.end()) return;
  chain.devices.push_back(dev);
  std::error_code ec;
  const fs::path node = fs::canonical(fs::path(sysfs_root) / "dev" / "block" / dev_number_text(dev), ec);
  if (ec) return;  // not a block device (tmpfs, overlay, NFS): nothing beneath it here
  if (fs::exists(node / "partition")) {
    walk(read_sysfs_dev(node.parent_path() / "dev"), sysfs_root, depth + 1, chain);  // 0 (unreadable) is skipped
  }
  for (const auto& slave : fs::directory_iterator(node / "slaves", ec)) {
    walk(read_sysfs_dev(slave.path() / "dev"), sysfs_root, depth + 1, chain);
  }
  const fs::path disk = fs::exists(node / "partition") ? node.parent_path() : node;
  if (fs::exists(disk / "loop")) walk_loop_backing(disk / "loop", sysfs_root, depth, chain);
}

// The kernel's own word on a loop's backing (LOOP_GET_STATUS64): right even
// when the file was deleted or renamed since it was attached, when the path
// sysfs shows no longer names it.
bool describe_backing_by_ioctl(AttachedLoop& loop) {
  const UniqueFd fd(::open(("/dev/" + loop.name).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  loop_info64 info{};
  if (!fd.valid() || ::ioctl(fd.get(), LOOP_GET_STATUS64, &info) != 0) return false;
  loop.backing_found = true;
  loop.backing_is_block = info.lo_rdevice != 0;
  loop.backing_rdev = static_cast<dev_t>(info.lo_rdevice);
  loop.backing_dev = static_cast<dev_t>(info.lo_device);
  loop.backing_ino = static_cast<ino_t>(info.lo_inode);
  loop.offset = info.lo_offset;
  return true;
}

// A fake sysfs tree (tests) has no device nodes behind it: the path is all there is.
bool describe_backing_by_path(AttachedLoop& loop) {
  struct stat st {};
  loop.backing_found = ::stat(loop.backing_path.c_str(), &st) == 0;
  loop.backing_is_block = loop.backing_found && S_ISBLK(st.st_mode);
  if (loop.backing_is_block) loop.backing_rdev = st.st_rdev;
  loop.backing_dev = st.st_dev;
  loop.backing_ino = st.st_ino;
  return true;
}

}  // namespace

std::vector<AttachedLoop> attached_loops(const std::string& sysfs_root) {
  std::vector<AttachedLoop> loops;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(sysfs_root) / "block", ec)) {
    const fs::path dir = entry.path() / "loop";
    AttachedLoop loop;
    loop.backing_path = read_sysfs_text(dir / "backing_file");
    if (loop.backing_path.empty()) continue;  // not a loop, or detached
    loop.name = entry.path().filename().string();
    loop.offset = sysfs_number(dir / "offset");
    loop.size = sysfs_number(entry.path() / "size") * 512;
    if (sysfs_root == "/sys" ? describe_backing_by_ioctl(loop) : describe_backing_by_path(loop)) loops.push_back(loop);
  }
  return loops;
}

StorageChain storage_beneath(dev_t dev, const std::string& sysfs_root) {
  StorageChain chain;
  walk(dev, sysfs_root, 0, chain);
  return chain;
}

std::string block_device_node(dev_t dev, const std::string& sysfs_root) {
  const fs::path uevent = fs::path(sysfs_root) / "dev" / "block" / dev_number_text(dev) / "uevent";
  std::ifstream in(uevent);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("DEVNAME=", 0) == 0 && line.size() > 8) return "/dev/" + line.substr(8);
  }
  return "";
}

}  // namespace ssdprobe
