#include "device/topology.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "temp_tree.h"

namespace fs = std::filesystem;
using ssdprobe::ErrorCategory;
using ssdprobe::TargetKind;
using ssdprobe::Topology;
using ssdprobe::read_block_topology;

namespace {

// A fake /sys in a fresh temporary directory, removed again on destruction.
using FakeSysfs = test_support::TempTree;

const fs::path kNvme0 = "devices/pci0000:00/0000:00:04.0/nvme/nvme0";
const fs::path kDisk = kNvme0 / "nvme0n1";
const fs::path kPart = kDisk / "nvme0n1p1";

// nvme0n1 (259:0) with one partition nvme0n1p1 (259:1) starting at sector 2048.
void build_nvme(const FakeSysfs& sys) {
  sys.write(kNvme0 / "model", "Example SSD 970   ");
  sys.write(kNvme0 / "serial", "  S1234567890");
  sys.write(kNvme0 / "firmware_rev", "2B2QEXM7");
  sys.link(kDisk / "device", "../../nvme0");
  sys.write(kDisk / "size", "1000215216");
  sys.write(kDisk / "alignment_offset", "0");
  const fs::path q = kDisk / "queue";
  sys.write(q / "logical_block_size", "512");
  sys.write(q / "physical_block_size", "4096");
  sys.write(q / "minimum_io_size", "16384");
  sys.write(q / "optimal_io_size", "131072");
  sys.write(q / "discard_granularity", "4096");
  sys.write(q / "discard_max_bytes", "2199023255040");
  sys.write(q / "rotational", "0");
  sys.write(q / "max_sectors_kb", "128");
  sys.write(q / "dma_alignment", "511");
  sys.write(q / "write_cache", "write back");
  sys.write(kPart / "partition", "1");
  sys.write(kPart / "start", "2048");
  sys.write(kPart / "size", "204800");
  sys.write(kPart / "alignment_offset", "3584");
  sys.link("dev/block/259:0", "../../" / kDisk);
  sys.link("dev/block/259:1", "../../" / kPart);
}

void check_nvme_queue_limits(const Topology& t) {
  CHECK(t.logical_block_size == 512u);
  CHECK(t.physical_block_size == 4096u);
  CHECK(t.minimum_io_size == 16384u);
  CHECK(t.optimal_io_size == 131072u);
  CHECK(t.discard_granularity == 4096u);
  CHECK(t.discard_max_bytes == 2199023255040u);
  CHECK(t.rotational == false);
  CHECK(t.max_sectors_kb == 128u);
  CHECK(t.dma_alignment == 512u);
  CHECK(t.write_cache == std::string("write back"));
}

void check_nvme_identity(const Topology& t) {
  CHECK(t.disk_name == "nvme0n1");
  CHECK(t.model == "Example SSD 970");
  CHECK(t.serial == "S1234567890");
  CHECK(t.firmware == "2B2QEXM7");
  CHECK(t.transport == "nvme");
  CHECK(t.backing_file.empty());
  CHECK(t.kernel_version == ssdprobe::kernel_release());
  CHECK(t.filesystem_block_size == std::nullopt);
}

}  // namespace

TEST_CASE("target_kind_name names every kind", "[topology]") {
  CHECK(std::string(ssdprobe::target_kind_name(TargetKind::block)) == "block");
  CHECK(std::string(ssdprobe::target_kind_name(TargetKind::partition)) == "partition");
  CHECK(std::string(ssdprobe::target_kind_name(TargetKind::file)) == "file");
  CHECK(std::string(ssdprobe::target_kind_name(TargetKind::sim)) == "sim");
}

TEST_CASE("kernel_release is uname -r", "[topology]") {
  CHECK_FALSE(ssdprobe::kernel_release().empty());
}

TEST_CASE("read_block_topology reads a whole disk", "[topology]") {
  FakeSysfs sys;
  build_nvme(sys);
  const Topology t = read_block_topology(259, 0, sys.root().string());
  check_nvme_identity(t);
  check_nvme_queue_limits(t);
  CHECK(t.partition_name.empty());
  CHECK(t.partition_start_bytes == 0u);
  CHECK(t.size_bytes == 1000215216ull * 512);
  CHECK(t.disk_size_bytes == t.size_bytes);
  CHECK(t.alignment_offset == 0);
}

TEST_CASE("read_block_topology reads a partition with its disk's queue limits", "[topology]") {
  FakeSysfs sys;
  build_nvme(sys);
  const Topology t = read_block_topology(259, 1, sys.root().string());
  check_nvme_identity(t);
  check_nvme_queue_limits(t);
  CHECK(t.partition_name == "nvme0n1p1");
  CHECK(t.partition_start_bytes == 2048u * 512);
  CHECK(t.size_bytes == 204800u * 512);
  CHECK(t.disk_size_bytes == 1000215216ull * 512);  // the drive's, for what the drive can hold
  CHECK(t.alignment_offset == 3584);
}

TEST_CASE("read_block_topology: a partition of a zoned disk carries the disk's zone model and limits", "[topology]") {
  FakeSysfs sys;
  build_nvme(sys);
  CHECK_FALSE(read_block_topology(259, 0, sys.root().string()).zoned);  // no queue/zoned: an old kernel
  sys.write(kDisk / "queue/zoned", "host-aware");
  sys.write(kDisk / "queue/chunk_sectors", "524288");
  sys.write(kDisk / "queue/nr_zones", "3815");
  const Topology t = read_block_topology(259, 1, sys.root().string());
  REQUIRE(t.zoned);
  CHECK(t.zoned->model == "host-aware");
  CHECK(t.zoned->zoned());
  CHECK(t.zoned->zone_bytes() == 256u << 20);
  CHECK(t.zoned->nr_zones == 3815u);
  CHECK_FALSE(t.zoned->max_open_zones);
}

TEST_CASE("read_block_topology leaves missing or malformed attributes unset", "[topology]") {
  FakeSysfs sys;
  build_nvme(sys);
  sys.remove(kDisk / "queue/optimal_io_size");
  sys.remove(kDisk / "queue/rotational");
  sys.remove(kDisk / "queue/dma_alignment");
  sys.remove(kDisk / "queue/write_cache");
  sys.remove(kNvme0 / "firmware_rev");
  sys.remove(kPart / "alignment_offset");
  sys.write(kDisk / "queue/discard_max_bytes", "lots");
  const Topology t = read_block_topology(259, 1, sys.root().string());
  CHECK(t.optimal_io_size == std::nullopt);
  CHECK(t.rotational == std::nullopt);
  CHECK(t.dma_alignment == std::nullopt);
  CHECK(t.write_cache == std::nullopt);
  CHECK(t.discard_max_bytes == std::nullopt);
  CHECK(t.alignment_offset == std::nullopt);
  CHECK(t.firmware.empty());
  CHECK(t.logical_block_size == 512u);  // the rest is still read
  CHECK(t.model == "Example SSD 970");
}

TEST_CASE("read_block_topology throws Error(target) for an unknown device number", "[topology]") {
  FakeSysfs sys;
  build_nvme(sys);
  try {
    read_block_topology(259, 7, sys.root().string());
    FAIL("no exception");
  } catch (const ssdprobe::Error& e) {
    CHECK(e.category() == ErrorCategory::target);
    CHECK(std::string(e.what()).find("259:7") != std::string::npos);
  }
}

TEST_CASE("read_block_topology names the transport", "[topology]") {
  FakeSysfs sys;
  // dev/block entries as real directories (no symlink) must work too.
  sys.write("dev/block/7:3/uevent", "MAJOR=7\nMINOR=3\nDEVNAME=loop3\nDEVTYPE=disk");
  sys.write("dev/block/7:3/size", "2048");
  sys.write("dev/block/7:3/loop/backing_file", "/var/tmp/disk.img");
  sys.write("dev/block/7:3/queue/logical_block_size", "4096");
  sys.write("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/size", "8");
  sys.write("devices/pci0000:00/0000:00:14.0/usb2/2-1/host6/target6:0:0/6:0:0:0/block/sdb/size", "8");
  sys.write("devices/pci0000:00/0000:00:02.0/virtio1/block/vda/size", "8");
  sys.write("devices/pci0000:00/0000:00:02.0/virtio1/block/vda/serial", "overlayblk");
  sys.write("devices/virtual/block/zram0/size", "8");
  sys.link("dev/block/8:0", "../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda");
  sys.link("dev/block/8:16", "../../devices/pci0000:00/0000:00:14.0/usb2/2-1/host6/target6:0:0/6:0:0:0/block/sdb");
  sys.link("dev/block/254:0", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
  sys.link("dev/block/253:0", "../../devices/virtual/block/zram0");
  const std::string root = sys.root().string();

  const Topology loop = read_block_topology(7, 3, root);
  CHECK(loop.disk_name == "loop3");  // from uevent: the directory is named "7:3"
  CHECK(loop.transport == "loop");
  CHECK(loop.backing_file == "/var/tmp/disk.img");
  CHECK(loop.logical_block_size == 4096u);
  CHECK(loop.size_bytes == 2048u * 512);

  CHECK(read_block_topology(8, 0, root).transport == "sata");
  CHECK(read_block_topology(8, 16, root).transport == "usb");
  const Topology vda = read_block_topology(254, 0, root);
  CHECK(vda.transport == "virtio");
  CHECK(vda.serial == "overlayblk");
  CHECK(read_block_topology(253, 0, root).transport == "unknown");
}

TEST_CASE("read_block_topology tells USB, SAS, SCSI and MMC disks apart", "[topology]") {
  FakeSysfs sys;
  const std::string uas = "devices/pci0000:00/0000:00:05.0/usb3/3-1/3-1:1.0/host2/target2:0:0/2:0:0:0/block/sdb";
  const std::string raid = "devices/pci0000:00/0000:00:06.0/host3/target3:2:0/3:2:0:0/block/sdc";
  const std::string sas = "devices/pci0000:00/0000:00:07.0/host4/port-4:0/end_device-4:0/target4:0:0/4:0:0:0/block/sdd";
  const std::string spi = "devices/pci0000:00/0000:00:08.0/host5/target5:0:0/5:0:0:0/block/sde";
  const std::string card = "devices/pci0000:00/0000:00:09.0/mmc_host/mmc0/mmc0:4567/block/mmcblk0";
  for (const auto& disk : {uas, raid, sas, spi, card}) sys.write(disk + "/size", "8");
  sys.write("devices/pci0000:00/0000:00:05.0/usb3/3-1/3-1:1.0/host2/scsi_host/host2/proc_name", "(null)");
  sys.write("bus/usb/drivers/uas/bind", "");
  sys.link("devices/pci0000:00/0000:00:05.0/usb3/3-1/3-1:1.0/driver", "../../../../../bus/usb/drivers/uas");
  sys.write("devices/pci0000:00/0000:00:06.0/host3/scsi_host/host3/proc_name", "megaraid_sas");
  sys.write("devices/pci0000:00/0000:00:08.0/host5/scsi_host/host5/proc_name", "sym53c8xx");
  sys.link("dev/block/8:16", "../../" + uas);
  sys.link("dev/block/8:32", "../../" + raid);
  sys.link("dev/block/8:48", "../../" + sas);
  sys.link("dev/block/8:64", "../../" + spi);
  sys.link("dev/block/179:0", "../../" + card);
  const std::string root = sys.root().string();

  const Topology usb = read_block_topology(8, 16, root);
  CHECK(usb.transport == "usb");
  CHECK(usb.scsi_host_driver == "uas");  // uas sets no proc_name: the interface's driver
  const Topology megaraid = read_block_topology(8, 32, root);
  CHECK(megaraid.transport == "sas");
  CHECK(megaraid.scsi_host_driver == "megaraid_sas");
  CHECK(read_block_topology(8, 48, root).transport == "sas");  // SAS transport class, driver unknown
  const Topology parallel = read_block_topology(8, 64, root);
  CHECK(parallel.transport == "scsi");
  CHECK(parallel.scsi_host_driver == "sym53c8xx");
  const Topology mmc = read_block_topology(179, 0, root);
  CHECK(mmc.transport == "mmc");
  CHECK(mmc.scsi_host_driver.empty());
}

TEST_CASE("read_block_topology on the real /sys", "[topology][system]") {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/sys/dev/block", ec)) {
    const std::string disk = fs::read_symlink(entry.path(), ec).filename().string();
    if (ec || !(disk.starts_with("loop") || disk.starts_with("vd"))) continue;
    const std::string number = entry.path().filename().string();
    const auto colon = number.find(':');
    const unsigned major = static_cast<unsigned>(std::stoul(number.substr(0, colon)));
    const unsigned minor = static_cast<unsigned>(std::stoul(number.substr(colon + 1)));
    INFO("device " << number << " (" << disk << ")");
    Topology t;
    REQUIRE_NOTHROW(t = read_block_topology(major, minor));
    CHECK(t.logical_block_size.has_value());
    CHECK(t.transport == (disk.starts_with("loop") ? "loop" : "virtio"));
    return;
  }
  WARN("no loop or vd* device under /sys/dev/block; skipped");
}
