// What the kernel reports about a target, read from sysfs, without any IO to
// the medium. For a partition the queue limits come from the parent disk and
// the partition adds its start and alignment_offset; for a regular file they
// come from the block device under its filesystem (st_dev ->
// /sys/dev/block/MAJ:MIN), and the filesystem block size is added.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "device/zoned.h"

namespace ssdprobe {

enum class TargetKind { block, partition, file, sim };
const char* target_kind_name(TargetKind kind);

struct Topology {
  // Identity
  std::string disk_name;              // "nvme0n1", "loop3", "vda"; empty if none
  std::string partition_name;         // "nvme0n1p2" for a partition target
  std::string model, serial, firmware; // empty where sysfs has none
  // nvme | sata | usb | sas | scsi | mmc | virtio | loop | file | sim | unknown
  std::string transport = "unknown";
  // sd disks: the driver of their SCSI host (its proc_name: "ahci",
  // "usb-storage", "uas", "megaraid_sas", ...); empty otherwise.
  std::string scsi_host_driver;
  std::string kernel_version;         // uname -r
  std::string backing_file;           // loop devices: the file behind it

  // Queue limits (bytes unless named otherwise); nullopt where sysfs lacks the file.
  std::optional<uint64_t> logical_block_size;
  std::optional<uint64_t> physical_block_size;
  std::optional<uint64_t> minimum_io_size;
  std::optional<uint64_t> optimal_io_size;
  std::optional<int64_t> alignment_offset;   // of the target (partition's own for a partition)
  std::optional<uint64_t> discard_granularity;
  std::optional<uint64_t> discard_max_bytes;
  std::optional<bool> rotational;
  std::optional<uint64_t> max_sectors_kb;
  std::optional<uint64_t> dma_alignment;     // bytes-1 mask as the kernel prints it, +1
  std::optional<std::string> write_cache;    // "write back" / "write through"
  std::optional<ZonedLimits> zoned;          // queue/zoned and the zone limits (device/zoned.h)

  // Placement
  uint64_t partition_start_bytes = 0;  // absolute start of the target on its disk
  uint64_t size_bytes = 0;             // of the target itself
  uint64_t disk_size_bytes = 0;        // of the whole disk it is on (a partition's disk); 0: unknown
  std::optional<uint64_t> filesystem_block_size;  // file targets only
};

// Reads the topology of the block device with this device number (st_rdev of
// a /dev node, or st_dev of a file's filesystem). `sysfs_root` is "/sys" in
// production; tests point it at a fake tree. Missing files leave fields unset;
// a missing /sys/dev/block/MAJ:MIN throws Error(target).
Topology read_block_topology(unsigned major, unsigned minor, const std::string& sysfs_root = "/sys");

// The running kernel's release string (uname -r).
std::string kernel_release();

}  // namespace ssdprobe
