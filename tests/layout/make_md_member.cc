// make-md-member: writes an md RAID v1.2 member superblock onto a device or
// file, built from the format (layout/md_superblock.h), because the kernel
// the tests run on has no md driver for mdadm --create to use.
//
//   make-md-member PATH --level N --raid-disks N --chunk BYTES
//                  --data-offset BYTES --role N [--name HOST:NAME]
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "layout/md_superblock.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: make-md-member PATH --level N --raid-disks N --chunk BYTES --data-offset BYTES --role N "
                       "[--name HOST:NAME]\n");
  return 2;
}

uint64_t size_of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return 0;
  if (S_ISREG(st.st_mode)) return static_cast<uint64_t>(st.st_size);
  uint64_t bytes = 0;
  return ::ioctl(fd, BLKGETSIZE64, &bytes) == 0 ? bytes : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  ssdprobe::MdSuperblock sb;
  sb.minor_version = 2;
  sb.superblock_offset_bytes = 4096;
  sb.array_uuid = "0123456789abcdef0123456789abcdef";
  sb.name = "ssdprobe-test:0";
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const long long value = std::atoll(argv[i + 1]);
    if (key == "--level") sb.level = static_cast<int>(value);
    else if (key == "--raid-disks") sb.raid_disks = static_cast<int>(value);
    else if (key == "--chunk") sb.chunk_bytes = static_cast<uint64_t>(value);
    else if (key == "--data-offset") sb.data_offset_bytes = static_cast<uint64_t>(value);
    else if (key == "--role") sb.role = static_cast<int>(value);
    else if (key == "--name") sb.name = argv[i + 1];  // any bytes: a crafted array's name
    else return usage();
  }
  const int fd = ::open(argv[1], O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    std::perror(argv[1]);
    return 1;
  }
  const uint64_t size = size_of(fd);
  if (size <= sb.data_offset_bytes) {
    std::fprintf(stderr, "make-md-member: %s is too small for data offset %llu\n", argv[1],
                 static_cast<unsigned long long>(sb.data_offset_bytes));
    return 1;
  }
  sb.data_size_bytes = (size - sb.data_offset_bytes) / 65536 * 65536;
  std::vector<uint8_t> block(ssdprobe::kMdSuperblockBytes);
  ssdprobe::encode_md_superblock(sb, block);
  const ssize_t n = ::pwrite(fd, block.data(), block.size(), static_cast<off_t>(sb.superblock_offset_bytes));
  if (n != static_cast<ssize_t>(block.size()) || ::fsync(fd) != 0) {
    std::perror("make-md-member: writing the superblock");
    return 1;
  }
  ::close(fd);
  return 0;
}
