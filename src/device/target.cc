#include "device/target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <fmt/format.h>

#include "core/error.h"
#include "core/unique_fd.h"
#include "device/psync_device.h"
#include "device/sim_device.h"
#include "device/uring_device.h"
#include "device/nvme_paths.h"

namespace ssdprobe {
namespace {

constexpr std::string_view kSimPrefix = "sim:";

// A simulated drive honours the engine's limits the way a real target would,
// so options that a real drive refuses are refused here too.
std::unique_ptr<Device> make_sim_device(const SimProfile& profile, const std::string& path, EngineChoice engine,
                                        uint64_t seed, bool writable) {
  if (engine == EngineChoice::passthru) {
    throw Error(ErrorCategory::unsupported, fmt::format("{} is a simulated drive: --engine passthru needs an NVMe "
                                                        "generic device (/dev/ngXnY)", path));
  }
  auto device = std::make_unique<SimDevice>(profile, seed, writable);
  if (engine == EngineChoice::psync) device->limit_to_one_in_flight();
  return device;
}

Target open_sim(const TargetRequest& request) {
  const std::string name = request.path.substr(kSimPrefix.size());
  const SimProfile* profile = find_sim_profile(name);
  if (profile == nullptr) {
    throw Error(ErrorCategory::target, fmt::format("unknown simulated drive '{}' (ssdprobe --list-sims lists them)", name));
  }
  Target target;
  target.path = request.path;
  target.kind = TargetKind::sim;
  Topology& t = target.topology;
  t.disk_name = request.path;
  t.model = "ssdprobe simulated drive " + profile->name;
  t.serial = "SIM-" + profile->name;
  t.firmware = "sim";
  t.transport = "sim";
  t.kernel_version = kernel_release();
  t.logical_block_size = profile->logical_block;
  t.physical_block_size = profile->logical_block;
  t.minimum_io_size = profile->logical_block;
  t.optimal_io_size = 0;
  t.alignment_offset = 0;
  t.rotational = false;
  t.size_bytes = profile->capacity_bytes;
  if (request.open_for_io) {
    target.device = make_sim_device(*profile, request.path, request.engine, request.seed, request.writable);
  }
  return target;
}

struct stat stat_or_throw(const std::string& path, bool allow_directory) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw os_error(path, errno);
  if (S_ISDIR(st.st_mode) && allow_directory) return st;
  if (S_ISDIR(st.st_mode)) {
    throw Error(ErrorCategory::target, fmt::format("{} is a directory; give a block device, a partition or a regular file", path));
  }
  if (S_ISCHR(st.st_mode)) {
    if (resolve_nvme_target(path)) return st;  // NVMe generic or controller node
    throw Error(ErrorCategory::target,
                fmt::format("{} is a character device; ssdprobe times block devices (/dev/nvme0n1, /dev/sda), "
                            "partitions, regular files and NVMe generic devices (/dev/ngXnY)", path));
  }
  if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
    throw Error(ErrorCategory::target, fmt::format("{} is neither a block device nor a regular file", path));
  }
  return st;
}

Topology file_topology(const std::string& path, const struct stat& st) {
  Topology t;
  try {
    t = read_block_topology(major(st.st_dev), minor(st.st_dev));
  } catch (const Error&) {
    t.kernel_version = kernel_release();  // tmpfs, overlay...: no block device under it
  }
  t.transport = "file";
  t.partition_start_bytes = 0;  // the file's own extents are not known to be aligned
  t.alignment_offset.reset();
  t.size_bytes = static_cast<uint64_t>(st.st_size);
  struct statfs fs {};
  if (::statfs(path.c_str(), &fs) == 0) t.filesystem_block_size = static_cast<uint64_t>(fs.f_bsize);
  return t;
}

UniqueFd open_direct(const std::string& path, bool writable) {
  int fd = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd >= 0) return UniqueFd(fd);
  const int err = errno;
  if (err == EINVAL) {
    throw Error(ErrorCategory::unsupported,
                fmt::format("{}: O_DIRECT is not supported here (tmpfs and some FUSE filesystems refuse it); "
                            "put the file on ext4/xfs or probe the block device", path));
  }
  throw os_error("cannot open " + path, err);
}

uint64_t block_device_size(int fd, const std::string& path) {
  uint64_t bytes = 0;
  if (::ioctl(fd, BLKGETSIZE64, &bytes) != 0) throw os_error(path + ": BLKGETSIZE64", errno);
  return bytes;
}

DeviceLimits limits_for(const Topology& t, uint64_t size) {
  DeviceLimits limits;
  limits.size_bytes = size;
  limits.logical_block = static_cast<uint32_t>(t.logical_block_size.value_or(512));
  if (t.max_sectors_kb) limits.max_transfer = static_cast<uint32_t>(std::min<uint64_t>(*t.max_sectors_kb * 1024, 1u << 20));
  return limits;
}

// An NVMe generic (/dev/ngXnY) or controller (/dev/nvmeX) node: the kernel's
// view is that of the namespace block device behind it, if there is one.
Topology nvme_char_topology(const std::string& path) {
  const auto nvme = resolve_nvme_target(path);
  struct stat block {};
  if (nvme && !nvme->namespace_disk.empty() && ::stat(nvme->namespace_path().c_str(), &block) == 0 &&
      S_ISBLK(block.st_mode)) {
    return read_block_topology(major(block.st_rdev), minor(block.st_rdev));
  }
  Topology t;
  t.transport = "nvme";
  t.disk_name = nvme ? nvme->controller : "";
  t.kernel_version = kernel_release();
  return t;
}

// io_uring first (unless psync was asked for); when the kernel refuses
// io_uring and the user did not insist on it, psync with a note.
// `open_fd` gives a fresh O_DIRECT descriptor on the target each call.
std::unique_ptr<Device> make_engine(const std::function<UniqueFd()>& open_fd, const DeviceLimits& limits,
                                    EngineChoice engine, bool writable, std::vector<std::string>& notes) {
  if (engine != EngineChoice::psync) {
    try {
      return std::make_unique<UringDevice>(open_fd(), limits, writable);
    } catch (const Error& e) {
      if (engine == EngineChoice::uring || e.category() != ErrorCategory::unsupported) throw;
      notes.push_back(std::string(e.what()) + "; using the psync engine");
    }
  }
  return std::make_unique<PsyncDevice>(open_fd(), limits, writable);
}

}  // namespace

void open_engine(Target& target, EngineChoice engine, bool writable, uint64_t seed,
                 const PassthruOpener& open_passthru, int claimed_fd) {
  if (target.kind == TargetKind::sim) {
    target.device = make_sim_device(*find_sim_profile(target.path.substr(kSimPrefix.size())), target.path, engine, seed,
                                    writable);
    return;
  }
  struct stat node {};
  const bool char_device = ::stat(target.path.c_str(), &node) == 0 && S_ISCHR(node.st_mode);
  if (engine == EngineChoice::passthru || char_device) {
    if (engine == EngineChoice::uring || engine == EngineChoice::psync) {
      throw Error(ErrorCategory::unsupported, fmt::format("{} is a character device: only --engine passthru can "
                                                          "do IO on it", target.path));
    }
    if (!open_passthru) {
      throw Error(ErrorCategory::unsupported, fmt::format("{}: the NVMe passthrough engine is not available in this "
                                                          "command", target.path));
    }
    auto device = open_passthru(target.path, writable);
    target.topology.size_bytes = device->limits().size_bytes;
    target.device = std::move(device);
    return;
  }
  // A claimed descriptor is duplicated, never reopened by name: the engine
  // then writes to the very device the write session checked and journaled.
  const auto open_fd = [&]() -> UniqueFd {
    if (claimed_fd < 0) return open_direct(target.path, writable);
    UniqueFd copy(::fcntl(claimed_fd, F_DUPFD_CLOEXEC, 0));
    if (!copy.valid()) throw os_error("duplicating the descriptor of " + target.path, errno);
    return copy;
  };
  const UniqueFd probe_fd = open_fd();  // fails early with a clear message
  struct stat st {};
  if (::fstat(probe_fd.get(), &st) != 0) throw os_error(target.path, errno);
  const uint64_t size = S_ISBLK(st.st_mode) ? block_device_size(probe_fd.get(), target.path)
                                            : static_cast<uint64_t>(st.st_size);
  target.topology.size_bytes = size;
  target.device = make_engine(open_fd, limits_for(target.topology, size), engine, writable, target.notes);
}

EngineChoice parse_engine(const std::string& name) {
  if (name == "auto") return EngineChoice::automatic;
  if (name == "uring" || name == "io_uring") return EngineChoice::uring;
  if (name == "psync") return EngineChoice::psync;
  if (name == "passthru") return EngineChoice::passthru;
  throw Error(ErrorCategory::usage, fmt::format("unknown engine '{}' (choose auto, uring, psync or passthru)", name));
}

Target open_target(const TargetRequest& request, const PassthruOpener& open_passthru) {
  if (request.path.rfind(kSimPrefix, 0) == 0) return open_sim(request);
  const struct stat st = stat_or_throw(request.path, request.allow_directory && !request.open_for_io);
  Target target;
  target.path = request.path;
  target.node = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), static_cast<uint64_t>(st.st_rdev)};
  if (S_ISCHR(st.st_mode)) {
    target.topology = nvme_char_topology(request.path);
    target.kind = TargetKind::block;
  } else if (S_ISBLK(st.st_mode)) {
    target.topology = read_block_topology(major(st.st_rdev), minor(st.st_rdev));
    target.kind = target.topology.partition_name.empty() ? TargetKind::block : TargetKind::partition;
  } else {
    target.kind = TargetKind::file;
    target.topology = file_topology(request.path, st);
  }
  if (!request.open_for_io) {
    if (::access(request.path.c_str(), R_OK) != 0 && errno == EACCES) {
      target.notes.push_back("no read permission on " + request.path + ": only sysfs was read");
    }
    return target;
  }
  open_engine(target, request.engine, request.writable, request.seed, open_passthru);
  return target;
}

}  // namespace ssdprobe
