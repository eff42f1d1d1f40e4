// The fix each finding gets: partition starts moved by sfdisk --move-data
// when the partition fits at an aligned start (else backup and recreate),
// ext4 stride by tune2fs, xfs sunit by a mount, and (no md or device-mapper
// on the test machines: strings only) md reshapes and LVM pvmove.
#include <catch2/catch.hpp>

#include "layout/audit.h"
#include "layout/volume_names.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

AuditUnits page16k() {
  AuditUnits u;
  u.read_page = 16 * KiB;
  return u;
}

LayoutStack partition_at(int number, uint64_t start, uint64_t size) {
  LayoutStack s;
  s.partition = PartitionEntry{number, start, size, "0x83", "", false};
  s.start_disk_offset = start;
  s.size_bytes = size;
  return s;
}

DiskLayout dos_disk(std::vector<LayoutStack> stacks, uint64_t disk = 256 * MiB) {
  DiskLayout d;
  d.disk_path = "/dev/loop7";
  d.disk_size_bytes = disk;
  d.table = PartitionTable{};
  d.table->scheme = "dos";
  for (const auto& s : stacks) d.table->partitions.push_back(*s.partition);
  d.stacks = std::move(stacks);
  return d;
}

FilesystemInfo fs_of(const std::string& type, uint32_t block, std::optional<uint64_t> unit = {},
                     std::optional<uint64_t> width = {}) {
  FilesystemInfo fs;
  fs.type = type;
  fs.block_bytes = block;
  fs.stripe_unit_bytes = unit;
  fs.stripe_width_bytes = width;
  return fs;
}

LayoutStack with_fs(LayoutStack s, FilesystemInfo fs) {
  s.filesystem = std::move(fs);
  s.filesystem_container = "partition";
  s.filesystem_disk_offset = s.start_disk_offset;
  return s;
}

// A whole-disk md member of a RAID 5 named "host:NAME".
LayoutStack md_member(const std::string& name, int raid_disks, uint64_t chunk, uint64_t data_offset) {
  LayoutStack s;
  MdSuperblock md;
  md.data_offset_bytes = data_offset;
  md.data_size_bytes = 100 * MiB;
  md.chunk_bytes = chunk;
  md.level = 5;
  md.raid_disks = raid_disks;
  md.name = "host:" + name;
  s.md = md;
  return s;
}

DiskLayout whole_disk(const LayoutStack& s) {
  DiskLayout d;
  d.disk_path = "/dev/sdb";
  d.stacks = {s};
  return d;
}

LayoutAudit audited(const DiskLayout& d, const FixContext& context = {}) {
  LayoutAudit audit = audit_layout(d, page16k());
  attach_fixes(audit, context);
  return audit;
}

const AuditLine& line_for(const LayoutAudit& a, const std::string& field) {
  for (const auto& line : a.lines) {
    if (line.field == field) return line;
  }
  FAIL("no line " << field);
  return a.lines.front();
}

}  // namespace

TEST_CASE("a sector-63 partition with room after it is moved with its data, priced at the measured rates") {
  const FixContext rates{80 * MiB, 40 * MiB, "read grid", "write stream"};
  const auto audit = audited(dos_disk({with_fs(partition_at(1, 63 * 512, 64 * MiB), fs_of("ext4", 4096))}), rates);
  const AuditLine& line = line_for(audit, "partition[1].start");
  REQUIRE(line.fix.size() == 3);
  CHECK(line.fix[0].command == "printf '%s\\n' 2048,131072 | sfdisk --move-data /dev/loop7 -N 1");
  CHECK(line.fix[0].moves_data);
  CHECK_FALSE(line.fix[0].destroys_data);
  CHECK(line.fix[0].cost.find("moves 64 MiB") != std::string::npos);
  CHECK(line.fix[0].cost.find("about 2.4 s") != std::string::npos);  // 0.8 s read + 1.6 s write
  CHECK(line.fix[1].command == "partx --update --nr 1 /dev/loop7");
  CHECK(line.fix[2].command == "e2fsck -fn /dev/loop7p1");
  CHECK(line_for(audit, "partition[1].ext4.block_size").fix.empty());  // OK lines get none
}

TEST_CASE("with no rate measured the move states its size only") {
  CHECK(move_cost(3 * MiB, {}).find("moves 3 MiB of data") == 0);
  CHECK(move_cost(3 * MiB, {}).find("no sequential rate") != std::string::npos);
  CHECK(move_cost(80 * MiB, {80 * MiB, std::nullopt, "grid", ""}).find("about 1.0 s") != std::string::npos);
}

TEST_CASE("a partition with no aligned room at its size takes the backup and recreate path") {
  // Partition 1 at 63, 2 MiB long, runs up to partition 2 at 2 MiB + 63
  // sectors: it fits neither at 1 MiB nor at 0; recreated at 1 MiB, smaller.
  const auto audit = audited(dos_disk({with_fs(partition_at(1, 63 * 512, 2 * MiB), fs_of("ext4", 4096)),
                                       partition_at(2, 2 * MiB + 63 * 512, 64 * MiB)}));
  const AuditLine& line = line_for(audit, "partition[1].start");
  REQUIRE_FALSE(line.fix.empty());
  CHECK(line.fix.front().command.empty());  // the backup is the user's
  CHECK(line.fix.front().cost.find("backup and restore") != std::string::npos);
  bool destroys = false;
  for (const auto& step : line.fix) destroys |= step.destroys_data;
  CHECK(destroys);
}

TEST_CASE("a partition with no aligned place at all gets words, never a mkfs on the unmoved partition") {
  // Partition 1 at 63 runs up to partition 2 at 1 MiB: no aligned start
  // below partition 2 leaves any room.
  const auto audit = audited(dos_disk({with_fs(partition_at(1, 63 * 512, MiB - 63 * 512), fs_of("ext4", 4096)),
                                       partition_at(2, 1 * MiB, 64 * MiB)}));
  const AuditLine& line = line_for(audit, "partition[1].start");
  REQUIRE(line.fix.size() == 1);
  CHECK(line.fix.front().command.empty());
  CHECK(line.fix.front().purpose.find("moving or shrinking them first") != std::string::npos);
}

TEST_CASE("a primary partition never moves into a DOS extended partition") {
  // p1 at 63 (100000 sectors), extended p2 right after it, logical p5 inside:
  // 1 MiB + 100000 sectors would run into the extended partition.
  LayoutStack extended = partition_at(2, 100063ull * 512, 64 * MiB);
  extended.partition->container = true;
  const auto audit = audited(dos_disk({partition_at(1, 63 * 512, 100000ull * 512), extended,
                                       partition_at(5, 102111ull * 512, 32 * MiB)}));
  const AuditLine& line = line_for(audit, "partition[1].start");
  for (const auto& step : line.fix) CHECK(step.command.find("--move-data") == std::string::npos);
}

TEST_CASE("a partition blocked above moves down to the aligned start below when the gap is free") {
  // 2 MiB + 63 sectors, 8 MiB long, partition 2 right after it: down to 2 MiB.
  const uint64_t start = 2 * MiB + 63 * 512;
  const auto audit = audited(dos_disk({partition_at(1, start, 8 * MiB), partition_at(2, start + 8 * MiB, MiB)}));
  CHECK(line_for(audit, "partition[1].start").fix.at(0).command ==
        "printf '%s\\n' 4096,16384 | sfdisk --move-data /dev/loop7 -N 1");
}

TEST_CASE("ext4 stride on a plain partition claims a stripe that does not exist; tune2fs clears it") {
  const auto audit =
      audited(dos_disk({with_fs(partition_at(1, MiB, 64 * MiB), fs_of("ext4", 4096, 16 * KiB, 64 * KiB))}));
  const AuditLine& stride = line_for(audit, "partition[1].ext4.stride");
  CHECK_FALSE(stride.ok);
  CHECK(stride.severity == Severity::warning);
  CHECK(stride.message.find("claims a RAID stripe that does not exist") != std::string::npos);
  REQUIRE(stride.fix.size() == 1);
  CHECK(stride.fix[0].command == "tune2fs -E stride=0,stripe_width=0 /dev/loop7p1");
  CHECK(stride.fix[0].cost == "in place, no data moved");
  CHECK(line_for(audit, "partition[1].ext4.stripe_width").fix.at(0).command == stride.fix[0].command);
}

TEST_CASE("ext4 on md with the wrong stride is set to the array's chunk and width") {
  LayoutStack s = md_member("data", 4, 64 * KiB, 1 * MiB);
  s.filesystem = fs_of("ext4", 4096, 16 * KiB, 48 * KiB);
  s.filesystem_container = "md";
  const DiskLayout d = whole_disk(s);
  const auto audit = audited(d);
  CHECK(line_for(audit, "ext4.stride").fix.at(0).command == "tune2fs -E stride=16,stripe_width=48 /dev/md/data");
}

TEST_CASE("xfs su=12k with no stripe below: one mount with a one-block stripe, on a directory of its own") {
  const auto audit = audited(dos_disk({with_fs(partition_at(1, MiB, 64 * MiB), fs_of("xfs", 4096, 12 * KiB, 12 * KiB))}));
  const AuditLine& sunit = line_for(audit, "partition[1].xfs.sunit");
  CHECK(sunit.severity == Severity::warning);
  CHECK(sunit.message.find("not a multiple of the read page") != std::string::npos);
  // One step that does the work, runnable as printed: no mount point that
  // may not exist, nothing written under /mnt.
  REQUIRE(sunit.fix.size() == 1);
  CHECK(sunit.fix[0].command ==
        "dir=$(mktemp -d) && mount -o sunit=8,swidth=8 /dev/loop7p1 \"$dir\" && umount \"$dir\" && rmdir \"$dir\"");
  CHECK(sunit.fix[0].purpose.find("fstab") != std::string::npos);
  CHECK(sunit.fix[0].cost == "in place, no data moved");
  const auto after = audited(dos_disk({with_fs(partition_at(1, MiB, 64 * MiB), fs_of("xfs", 4096, 4 * KiB, 4 * KiB))}));
  CHECK(after.all_ok());
  CHECK(line_for(after, "partition[1].xfs.sunit").message.find("one filesystem block") != std::string::npos);
}

TEST_CASE("md chunk and data offset: reshapes (strings only: no md here)") {
  const DiskLayout d = whole_disk(md_member("md0", 3, 12 * KiB, 1 * MiB + 4 * KiB));
  const auto audit = audited(d);
  const auto& chunk = line_for(audit, "md.chunk").fix.at(0);
  CHECK(chunk.command == "mdadm --grow /dev/md/md0 --chunk=16K --backup-file=/root/md-md0-chunk.backup");
  CHECK(chunk.moves_data);
  CHECK(chunk.cost.find("moves 200 MiB") != std::string::npos);  // 2 data disks × 100 MiB
  CHECK(line_for(audit, "md.data_offset").fix.at(0).command == "mdadm --grow /dev/md/md0 --data-offset=2048K");
}

namespace {

// Partition 2 of /dev/sdb, an LVM PV of volume group `vg` whose data area
// starts 192 KiB in (misaligned), holding 10 extents of logical volume `lv`.
LayoutStack lvm_partition(const std::string& vg, const std::string& lv) {
  auto s = partition_at(2, 1 * MiB, 200 * MiB);
  s.node = "/dev/sdb2";
  LvmPhysicalVolume pv;
  pv.pe_start_bytes = 192 * KiB;
  pv.extent_bytes = 4 * MiB;
  pv.vg_name = vg;
  pv.segments = {LvmSegment{lv, 0, 0, 10, 1, 0}};
  s.lvm = pv;
  return s;
}

}  // namespace

TEST_CASE("LVM pe_start: pvmove onto a PV made aligned; extent size by vgchange (strings only)") {
  const auto audit = audited(dos_disk({lvm_partition("vg0", "root")}));
  const auto& fix = line_for(audit, "partition[2].lvm.pe_start").fix;
  REQUIRE(fix.size() == 5);
  CHECK(fix[0].command == "pvcreate --dataalignment 1024K NEWDEV");
  CHECK(fix[1].command == "vgextend vg0 NEWDEV");
  CHECK(fix[2].command == "pvmove /dev/sdb2 NEWDEV");
  CHECK(fix[2].cost.find("moves 40 MiB") != std::string::npos);
  CHECK(fix[4].command == "pvremove /dev/sdb2");
  CHECK(line_for(audit, "partition[2].lvm.lv[root].start").fix.at(2).command == "pvmove -n root /dev/sdb2 NEWDEV");
}

// A PV on which nothing is allocated (an empty volume group) has no data to
// move: no pvmove of 0 B, the PV is made again in place.
TEST_CASE("LVM pe_start of a PV with nothing allocated: made again aligned, no pvmove") {
  auto s = lvm_partition("vg0", "root");
  s.lvm->segments.clear();
  SECTION("the group's only PV: the empty group is made again") {
    s.lvm->vg_pv_count = 1;
    const auto audit = audited(dos_disk({s}));
    const auto& fix = line_for(audit, "partition[2].lvm.pe_start").fix;
    REQUIRE(fix.size() == 4);
    CHECK(fix[0].command == "vgremove vg0");
    CHECK(fix[1].command == "pvremove /dev/sdb2");
    CHECK(fix[2].command == "pvcreate --dataalignment 1024K /dev/sdb2");  // the partition starts at 1 MiB
    CHECK(fix[3].command == "vgcreate --physicalextentsize 4096K vg0 /dev/sdb2");
    CHECK(fix[0].purpose.find("no data to move") != std::string::npos);
    for (const auto& step : fix) {
      CHECK(step.command.find("pvmove") == std::string::npos);
      CHECK(step.command.find("NEWDEV") == std::string::npos);
      CHECK_FALSE(step.moves_data);
      CHECK(step.cost.find("no data") != std::string::npos);
    }
  }
  SECTION("one PV of several: taken out of the group and put back") {
    s.lvm->vg_pv_count = 3;
    const auto audit = audited(dos_disk({s}));
    const auto& fix = line_for(audit, "partition[2].lvm.pe_start").fix;
    REQUIRE(fix.size() == 4);
    CHECK(fix[0].command == "vgreduce vg0 /dev/sdb2");
    CHECK(fix[3].command == "vgextend vg0 /dev/sdb2");
  }
  SECTION("on a partition at sector 63: the data area is shifted onto the alignment") {
    s.lvm->vg_pv_count = 1;
    s.partition->start_bytes = s.start_disk_offset = 63 * 512;
    const auto audit = audited(dos_disk({s}));
    const auto& fix = line_for(audit, "partition[2].lvm.pe_start").fix;
    // 1 MiB - 63 sectors = 1985 sectors past the PV's start is aligned.
    CHECK(fix.at(2).command == "pvcreate --dataalignment 1024K --dataalignmentoffset 1985s /dev/sdb2");
  }
  SECTION("a PV with extents allocated still moves them") {
    s.lvm->segments = {LvmSegment{"root", 0, 0, 10, 1, 0}};
    CHECK(line_for(audited(dos_disk({s})), "partition[2].lvm.pe_start").fix.at(2).command ==
          "pvmove /dev/sdb2 NEWDEV");
  }
}

TEST_CASE("a kernel partition that disagrees with the table: partx") {
  auto d = dos_disk({partition_at(1, 1 * MiB, 64 * MiB)});
  d.kernel_partitions = {KernelPartition{1, "loop7p1", 63 * 512, 64 * MiB, 0}};
  CHECK(line_for(audited(d), "partition[1].kernel_start").fix.at(0).command == "partx --update --nr 1 /dev/loop7");
}

// Names from the disk and paths from the user never turn a fix into another
// command: a path is one quoted word; a name LVM or mdadm would refuse is
// not pasted at all, and the step says what stands in its place.
TEST_CASE("hostile names and paths: quoted paths, refused names replaced by placeholders") {
  SECTION("a disk image whose name has a space") {
    auto d = dos_disk({partition_at(1, 63 * 512, 64 * MiB)});
    d.disk_path = "my disk.img";
    const auto audit = audited(d);
    CHECK(line_for(audit, "partition[1].start").fix.at(0).command ==
          "printf '%s\\n' 2048,131072 | sfdisk --move-data 'my disk.img' -N 1");
    CHECK(line_for(audit, "partition[1].start").fix.at(1).command == "partx --update --nr 1 'my disk.img'");
  }
  SECTION("a quote in a path is closed, escaped and reopened") {
    auto d = dos_disk({partition_at(1, 63 * 512, 64 * MiB)});
    d.disk_path = "/tmp/it's;reboot";
    CHECK(line_for(audited(d), "partition[1].start").fix.at(1).command ==
          "partx --update --nr 1 '/tmp/it'\\''s;reboot'");
  }
  SECTION("a volume group named to run a command") {
    const auto audit = audited(dos_disk({lvm_partition("vg;touch$IFS/var/x;:", "root`id`")}));
    const auto& fix = line_for(audit, "partition[2].lvm.pe_start").fix;
    REQUIRE(fix.size() == 5);
    CHECK(fix[1].command == "vgextend VG NEWDEV");
    CHECK(fix[1].purpose.find("\"vg;touch$IFS/var/x;:\", is not one LVM accepts") != std::string::npos);
    CHECK(fix[3].command == "vgreduce VG /dev/sdb2");
    const auto& lv_fix = line_for(audit, "partition[2].lvm.lv[root`id`].start").fix;
    CHECK(lv_fix.at(2).command == "pvmove -n LV /dev/sdb2 NEWDEV");
    CHECK(lv_fix.at(2).purpose.find("LV stands for it") != std::string::npos);
    for (const auto& line : audit.lines) {
      for (const auto& step : line.fix) {
        CHECK(step.command.find("touch") == std::string::npos);
        CHECK(step.command.find('`') == std::string::npos);
      }
    }
  }
  SECTION("a logical volume named to pass for another (']' in its name)") {
    auto s = lvm_partition("vg0", "root]x");
    s.lvm->segments.push_back(LvmSegment{"root", 0, 10, 10, 1, 0});
    const auto audit = audited(dos_disk({s}));
    CHECK(line_for(audit, "partition[2].lvm.lv[root]x].start").fix.at(2).command == "pvmove -n LV /dev/sdb2 NEWDEV");
    CHECK(line_for(audit, "partition[2].lvm.lv[root].start").fix.at(2).command == "pvmove -n root /dev/sdb2 NEWDEV");
  }
  SECTION("an md array named to run a command") {
    const DiskLayout d = whole_disk(md_member("x;touch$IFS/var/x;:", 3, 12 * KiB, 1 * MiB + 4 * KiB));
    const auto audit = audited(d);
    const auto& offset = line_for(audit, "md.data_offset").fix.at(0);
    CHECK(offset.command == "mdadm --grow /dev/mdN --data-offset=2048K");
    CHECK(offset.purpose.find("is not one mdadm accepts") != std::string::npos);
    CHECK(line_for(audit, "md.chunk").fix.at(0).command ==
          "mdadm --grow /dev/mdN --chunk=16K --backup-file=/root/md-mdN-chunk.backup");
  }
}

TEST_CASE("the names LVM and mdadm accept") {
  CHECK(lvm_accepts_name("vg0"));
  CHECK(lvm_accepts_name("data+logs_1.x-y"));
  CHECK_FALSE(lvm_accepts_name(""));
  CHECK_FALSE(lvm_accepts_name("-vg"));
  CHECK_FALSE(lvm_accepts_name(".."));
  CHECK_FALSE(lvm_accepts_name("vg name"));
  CHECK_FALSE(lvm_accepts_name("vg;x"));
  CHECK_FALSE(lvm_accepts_name(std::string(128, 'a')));
  CHECK(mdadm_accepts_name("md0"));
  CHECK(mdadm_accepts_name("data.1_x-y"));
  CHECK_FALSE(mdadm_accepts_name("a+b"));
  CHECK_FALSE(mdadm_accepts_name("x\ny"));
  CHECK_FALSE(mdadm_accepts_name(std::string(33, 'a')));
}
