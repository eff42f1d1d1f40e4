#include "safety/stacked_storage.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

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

dev_t parse_dev(const std::string& text) {
  unsigned maj = 0, min = 0;
  return std::sscanf(text.c_str(), "%u:%u", &maj, &min) == 2 ? makedev(maj, min) : 0;
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
  if (depth > kMaxDepth || std::find(chain.devices.begin(), chain.devices.end(), dev) != chain.devices.end()) return;
  chain.devices.push_back(dev);
  std::error_code ec;
  const fs::path node = fs::canonical(fs::path(sysfs_root) / "dev" / "block" / fmt::format("{}:{}", major(dev), minor(dev)), ec);
  if (ec) return;  // not a block device (tmpfs, overlay, NFS): nothing beneath it here
  if (fs::exists(node / "partition")) walk(parse_dev(read_sysfs_text(node.parent_path() / "dev")), sysfs_root, depth + 1, chain);
  for (const auto& slave : fs::directory_iterator(node / "slaves", ec)) {
    walk(parse_dev(read_sysfs_text(slave.path() / "dev")), sysfs_root, depth + 1, chain);
  }
  const fs::path disk = fs::exists(node / "partition") ? node.parent_path() : node;
  if (fs::exists(disk / "loop")) walk_loop_backing(disk / "loop", sysfs_root, depth, chain);
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
    struct stat st {};
    loop.backing_found = ::stat(loop.backing_path.c_str(), &st) == 0;
    loop.backing_is_block = loop.backing_found && S_ISBLK(st.st_mode);
    if (loop.backing_is_block) loop.backing_rdev = st.st_rdev;
    if (loop.backing_found && !loop.backing_is_block) {
      loop.backing_dev = st.st_dev;
      loop.backing_ino = st.st_ino;
    }
    loops.push_back(std::move(loop));
  }
  return loops;
}

StorageChain storage_beneath(dev_t dev, const std::string& sysfs_root) {
  StorageChain chain;
  walk(dev, sysfs_root, 0, chain);
  return chain;
}

}  // namespace ssdprobe
