#include "layout/layout_source.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <cerrno>

#include "core/error.h"

namespace ssdprobe {

OpenedLayoutSource open_layout_source(const Target& target, const std::string& sysfs_root) {
  if (target.kind == TargetKind::sim) {
    throw Error(ErrorCategory::target, target.path + " is a simulated drive: there is no layout on it to audit");
  }
  OpenedLayoutSource opened;
  LayoutSource& source = opened.source;
  source.sysfs_root = sysfs_root;
  source.logical_block = static_cast<uint32_t>(target.topology.logical_block_size.value_or(512));
  // A partition is audited as part of its disk: the table, the kernel's view
  // and the neighbouring partitions are only visible from there.
  source.path = target.kind == TargetKind::partition ? "/dev/" + target.topology.disk_name : target.path;
  if (target.kind != TargetKind::file) source.disk_name = target.topology.disk_name;
  opened.fd = UniqueFd(::open(source.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!opened.fd.valid()) throw os_error("opening " + source.path + " to read its layout", errno);
  struct stat st {};
  if (::fstat(opened.fd.get(), &st) != 0) throw os_error(source.path, errno);
  if (S_ISBLK(st.st_mode)) {
    uint64_t bytes = 0;
    if (::ioctl(opened.fd.get(), BLKGETSIZE64, &bytes) != 0) throw os_error(source.path + ": BLKGETSIZE64", errno);
    source.size_bytes = bytes;
  } else if (S_ISREG(st.st_mode)) {
    source.size_bytes = static_cast<uint64_t>(st.st_size);
    // A disk image is read as the loop device `losetup FILE` makes of it,
    // whose logical block is 512 B whatever the disk the file is on has.
    source.regular_file = true;
    source.logical_block = 512;
  } else {
    throw Error(ErrorCategory::target, source.path + " is neither a block device nor a regular file");
  }
  source.fd = opened.fd.get();
  return opened;
}

}  // namespace ssdprobe
