#include "device/topology.h"

#include <sys/utsname.h>

#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string_view>
#include <system_error>

#include "core/error.h"
#include "device/sysfs_text.h"

namespace ssdprobe {

namespace fs = std::filesystem;

namespace {

// A decimal attribute; nullopt if missing, unreadable or not entirely a number.
template <typename Int>
std::optional<Int> read_sysfs_int(const fs::path& path) {
  auto text = read_sysfs_string(path);
  if (!text || text->empty()) return std::nullopt;
  Int value{};
  const char* end = text->data() + text->size();
  auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<uint64_t> read_sysfs_u64(const fs::path& path) { return read_sysfs_int<uint64_t>(path); }
std::optional<int64_t> read_sysfs_i64(const fs::path& path) { return read_sysfs_int<int64_t>(path); }

// First attribute of `paths` that exists and is non-empty, else "".
std::string first_text(std::initializer_list<fs::path> paths) {
  for (const auto& path : paths) {
    auto text = read_sysfs_text(path);
    if (!text.empty()) return text;
  }
  return {};
}

// The kernel's name for the device in sysfs directory `dir`: DEVNAME from its
// uevent, else the directory's own name (they agree in a real sysfs; a fake
// tree may use a plain directory named "MAJ:MIN").
std::string device_name(const fs::path& dir) {
  std::istringstream uevent(read_sysfs_text(dir / "uevent"));
  for (std::string line; std::getline(uevent, line);) {
    if (line.starts_with("DEVNAME=")) return trim_whitespace(line.substr(8));
  }
  return dir.filename().string();
}

// True if a component of `path` looks like a libata port ("ata1", "ata12").
bool has_ata_port(const fs::path& path) {
  for (const auto& part : path) {
    const std::string name = part.string();
    if (name.size() > 3 && name.starts_with("ata") && std::isdigit(static_cast<unsigned char>(name[3])))
      return true;
  }
  return false;
}

// The SCSI host a disk hangs off ("host6" in its sysfs path): the directory,
// or an empty path when there is none.
fs::path scsi_host_dir(const fs::path& disk_path) {
  fs::path prefix;
  for (const auto& part : disk_path) {
    prefix /= part;
    const std::string name = part.string();
    if (name.size() > 4 && name.starts_with("host") && std::isdigit(static_cast<unsigned char>(name[4])))
      return prefix;
  }
  return {};
}

// The SCSI host's proc_name; a driver that sets none (uas) shows "(null)",
// and then the driver bound to the host's parent device (the USB interface)
// names it.
std::string scsi_host_driver(const fs::path& host) {
  if (host.empty()) return "";
  std::string name = read_sysfs_text(host / "scsi_host" / host.filename() / "proc_name");
  if (!name.empty() && name != "(null)") return name;
  std::error_code ec;
  const fs::path driver = fs::read_symlink(host.parent_path() / "driver", ec);
  return ec ? "" : driver.filename().string();
}

bool has_component_starting(const fs::path& path, std::string_view prefix) {
  for (const auto& part : path) {
    if (part.string().starts_with(prefix)) return true;
  }
  return false;
}

// SAS host bus adapters whose disks do not sit under the SAS transport
// class's end_device-* directories (RAID firmware in between, like
// megaraid_sas) are known only by their driver.
bool is_sas_driver(std::string_view driver) {
  for (const std::string_view sas : {"megaraid_sas", "mpt3sas", "mpt2sas", "mptsas", "pm80xx", "isci", "mvsas",
                                     "aic94xx", "hisi_sas_v1_hw", "hisi_sas_v2_hw", "hisi_sas_v3_hw", "smartpqi",
                                     "hpsa"}) {
    if (driver == sas) return true;
  }
  return false;
}

// An sd disk: SATA behind libata, USB (usb-storage or uas), SAS (the SAS
// transport class or a SAS HBA driver), else plain SCSI.
std::string scsi_disk_transport(const fs::path& disk_path, const std::string& host_driver) {
  if (has_ata_port(disk_path)) return "sata";
  if (has_component_starting(disk_path, "usb")) return "usb";
  if (has_component_starting(disk_path, "end_device-") || is_sas_driver(host_driver)) return "sas";
  return "scsi";
}

std::string transport_for(const std::string& disk_name, const fs::path& disk_path, const std::string& host_driver) {
  if (disk_name.starts_with("nvme")) return "nvme";
  if (disk_name.starts_with("loop")) return "loop";
  if (disk_name.starts_with("vd")) return "virtio";
  if (disk_name.starts_with("mmcblk")) return "mmc";
  if (disk_name.starts_with("sd")) return scsi_disk_transport(disk_path, host_driver);
  return "unknown";
}

fs::path resolve_node(unsigned major, unsigned minor, const std::string& sysfs_root) {
  const std::string number = std::to_string(major) + ":" + std::to_string(minor);
  const fs::path link = fs::path(sysfs_root) / "dev" / "block" / number;
  std::error_code ec;
  fs::path node = fs::canonical(link, ec);
  if (ec || !fs::is_directory(node, ec))
    throw Error(ErrorCategory::target,
                "no block device " + number + " in sysfs (" + link.string() + " does not resolve to a directory)");
  return node;
}

void read_queue_limits(const fs::path& queue, Topology& t) {
  t.logical_block_size = read_sysfs_u64(queue / "logical_block_size");
  t.physical_block_size = read_sysfs_u64(queue / "physical_block_size");
  t.minimum_io_size = read_sysfs_u64(queue / "minimum_io_size");
  t.optimal_io_size = read_sysfs_u64(queue / "optimal_io_size");
  t.discard_granularity = read_sysfs_u64(queue / "discard_granularity");
  t.discard_max_bytes = read_sysfs_u64(queue / "discard_max_bytes");
  t.max_sectors_kb = read_sysfs_u64(queue / "max_sectors_kb");
  if (auto rotational = read_sysfs_u64(queue / "rotational")) t.rotational = *rotational != 0;
  if (auto mask = read_sysfs_u64(queue / "dma_alignment")) t.dma_alignment = *mask + 1;
  if (auto cache = read_sysfs_string(queue / "write_cache"); cache && !cache->empty()) t.write_cache = *cache;
}

void read_identity(const fs::path& disk, Topology& t) {
  const fs::path device = disk / "device";
  t.model = read_sysfs_text(device / "model");
  t.serial = first_text({device / "serial", disk / "serial"});
  t.firmware = first_text({device / "firmware_rev", device / "rev"});
  if (t.disk_name.starts_with("sd")) t.scsi_host_driver = scsi_host_driver(scsi_host_dir(disk));
  t.transport = transport_for(t.disk_name, disk, t.scsi_host_driver);
  if (t.transport == "loop") t.backing_file = read_sysfs_text(disk / "loop" / "backing_file");
}

}  // namespace

const char* target_kind_name(TargetKind kind) {
  switch (kind) {
    case TargetKind::block: return "block";
    case TargetKind::partition: return "partition";
    case TargetKind::file: return "file";
    case TargetKind::sim: return "sim";
  }
  return "block";
}

std::string kernel_release() {
  struct utsname name{};
  if (uname(&name) != 0) return {};
  return name.release;
}

Topology read_block_topology(unsigned major, unsigned minor, const std::string& sysfs_root) {
  const fs::path node = resolve_node(major, minor, sysfs_root);
  std::error_code ec;
  const bool is_partition = fs::exists(node / "partition", ec);
  // A partition's directory sits inside its disk's; the disk holds the queue and identity.
  const fs::path disk = is_partition ? node.parent_path() : node;

  Topology t;
  t.disk_name = device_name(disk);
  if (is_partition) {
    t.partition_name = device_name(node);
    t.partition_start_bytes = read_sysfs_u64(node / "start").value_or(0) * kKernelSectorBytes;
  }
  t.size_bytes = read_sysfs_u64(node / "size").value_or(0) * kKernelSectorBytes;
  t.disk_size_bytes = read_sysfs_u64(disk / "size").value_or(0) * kKernelSectorBytes;
  t.alignment_offset = read_sysfs_i64(node / "alignment_offset");
  read_queue_limits(disk / "queue", t);
  t.zoned = read_zoned_limits(disk / "queue");
  read_identity(disk, t);
  t.kernel_version = kernel_release();
  return t;
}

}  // namespace ssdprobe
