#include "layout/file_filesystem.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "core/error.h"
#include "core/unique_fd.h"
#include "device/topology.h"
#include "layout/fs_superblock.h"

namespace ssdprobe {
namespace {

constexpr long kXfsStatfsMagic = 0x58465342;   // XFS_SUPER_MAGIC ("XFSB")
constexpr long kF2fsStatfsMagic = 0xF2F52010;  // F2FS_SUPER_MAGIC

std::string type_of(long magic) {
  switch (magic) {
    case EXT4_SUPER_MAGIC: return "ext4";  // ext2 and ext3 share the magic
    case kXfsStatfsMagic: return "xfs";
    case kF2fsStatfsMagic: return "f2fs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case TMPFS_MAGIC: return "tmpfs";
    case OVERLAYFS_SUPER_MAGIC: return "overlay";
    default: return fmt::format("0x{:x}", static_cast<unsigned long>(magic));
  }
}

// The superblock from the device: ext4's bigalloc cluster (statfs reports
// the block, not the cluster), xfs's stripe unit.
void read_superblock(FileFilesystem& fs) {
  const UniqueFd dev(::open(fs.device.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!dev.valid()) {
    fs.notes.push_back(fmt::format("the {} superblock was not read: opening {}: {}", fs.type, fs.device,
                                   std::strerror(errno)));
    return;
  }
  std::vector<uint8_t> head(4096);
  const ssize_t got = ::pread(dev.get(), head.data(), head.size(), 0);
  if (got <= 0) {
    fs.notes.push_back(fmt::format("the {} superblock was not read: reading {} failed", fs.type, fs.device));
    return;
  }
  head.resize(static_cast<size_t>(got));
  const FilesystemInfo info = decode_filesystem(fs.type, head);
  fs.cluster_bytes = info.cluster_bytes;
  fs.stripe_unit_bytes = info.stripe_unit_bytes;
  fs.allocation_group_bytes = info.allocation_group_bytes;
}

void find_device(FileFilesystem& fs, dev_t dev, const std::string& sysfs_root) {
  try {
    const Topology t = read_block_topology(major(dev), minor(dev), sysfs_root);
    fs.disk = t.disk_name.empty() ? "" : "/dev/" + t.disk_name;
    fs.device = t.partition_name.empty() ? fs.disk : "/dev/" + t.partition_name;
    fs.disk_start = t.partition_start_bytes;
  } catch (const Error&) {
    fs.offsets_unknown = fmt::format("no block device is under this {} filesystem (device {}:{})", fs.type,
                                     major(dev), minor(dev));
  }
}

}  // namespace

FileFilesystem file_filesystem(int fd, const std::string& name, const std::string& sysfs_root) {
  FileFilesystem fs;
  struct statfs sfs {};
  if (::fstatfs(fd, &sfs) != 0) throw os_error(name + ": statfs", errno);
  fs.type = type_of(static_cast<long>(sfs.f_type));
  fs.block_bytes = static_cast<uint64_t>(sfs.f_bsize);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw os_error(name, errno);
  find_device(fs, st.st_dev, sysfs_root);
  if (fs.type == "btrfs") {
    fs.offsets_unknown = "btrfs reports extents in its own address space (chunks that may lie on several "
                         "devices), not as offsets on a disk";
  }
  const bool decoded = fs.type == "ext4" || fs.type == "xfs";
  if (decoded && fs.offsets_unknown.empty() && !fs.device.empty()) read_superblock(fs);
  return fs;
}

std::optional<uint64_t> extent_size_hint(int fd) {
  struct fsxattr attr {};
  if (::ioctl(fd, FS_IOC_FSGETXATTR, &attr) != 0) return std::nullopt;
  return attr.fsx_extsize;
}

}  // namespace ssdprobe
